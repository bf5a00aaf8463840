// stud_server's own Connect listener (--connect_listen, service/connect/) against the web gateway in
// front of the same server: every unary RPC of a whole hand, sent as the same bytes (JSON and binary)
// to both, answers with the same status, content type and body byte for byte, refusals included
// (code, message, details with their debug JSON; Spanish with accept-language: es); tenant keys;
// then the listener's own HTTP/1.1 edges (404, 405, 415, 501, the 4 MiB body and 32 KiB header
// limits, keep-alive and pipelining, connections dropped or stalled mid-body, a bad
// connect-timeout-ms). The differences the listener documents are asserted as such.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { create, fromBinary, fromJsonString, toBinary, toJsonString } from "@bufbuild/protobuf";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { startConnectServer, startGatewayOnly } from "./harness.mjs";

let server;
let gateway;

before(async () => {
  server = await startConnectServer(["--allow_preset"]);
  gateway = await startGatewayOnly(server.upstream).catch(async (error) => {
    await server.stop();
    throw error;
  });
});
after(async () => {
  await gateway?.stop();
  await server?.stop();
});

// A fixed deck (PRESET dealing), the first card off the top first: every answer is the same for
// the same request, whoever deals it, apart from the hand's random id and what is sealed with it.
const deck = [];
for (const rank of "AKQJT98765432") for (const suit of "shdc") deck.push(rank + suit);
const newHand = {
  variant: pb.Variant.STUD,
  stakes: { kind: { case: "preset", value: "$15-$30" } },
  seats: [1, 2, 3].map((seat) => ({ seat, stack: 20000n })),
  dealingMode: pb.DealingMode.PRESET,
  presetDeck: deck,
  privateViewSeats: [1, 2, 3],
};

async function post(base, method, body, contentType, headers = {}) {
  const response = await fetch(`${base}/stud.v1.StudService/${method}`, {
    method: "POST",
    headers: { "content-type": contentType, ...headers },
    body,
  });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

// `text` with every occurrence of each of `secrets` (strings or bytes) overwritten by '#'.
function blank(text, secrets) {
  const out = Buffer.from(text);
  for (const secret of secrets) {
    const needle = Buffer.from(secret);
    if (needle.length === 0) continue;
    for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + needle.length)) out.fill(0x23, at, at + needle.length);
  }
  return out;
}

const schemas = {
  NewHand: [pb.NewHandRequestSchema, pb.NewHandResponseSchema],
  ApplyAction: [pb.ApplyActionRequestSchema, pb.ApplyActionResponseSchema],
  LegalActions: [pb.LegalActionsRequestSchema, pb.LegalActionsResponseSchema],
  GetView: [pb.GetViewRequestSchema, pb.GetViewResponseSchema],
  ResolveShowdown: [pb.ResolveShowdownRequestSchema, pb.ResolveShowdownResponseSchema],
  RuleIrregularity: [pb.RuleIrregularityRequestSchema, pb.RuleIrregularityResponseSchema],
  ExportHandHistory: [pb.ExportHandHistoryRequestSchema, pb.ExportHandHistoryResponseSchema],
  ReplayHandHistory: [pb.ReplayHandHistoryRequestSchema, pb.ReplayHandHistoryResponseSchema],
  GetSigningKeys: [pb.GetSigningKeysRequestSchema, pb.GetSigningKeysResponseSchema],
};

// Sends `init` as the same JSON bytes and the same binary bytes to the listener and to the gateway
// (`via`: another pair); asserts the same status, content type and body. `random(answer)`: values
// new on every call (a new hand's id, what is sealed with it), blanked in both bodies first (bytes
// in binary, base64 or text in JSON). Returns the listener's { json, proto (decoded if OK) }.
async function same(method, init, { headers = {}, status = 200, random, via = { connect: server.connect, gateway: gateway.gateway } } = {}) {
  const [requestSchema, responseSchema] = schemas[method];
  const request = create(requestSchema, init);
  const bodies = {
    "application/json": toJsonString(requestSchema, request),
    "application/proto": toBinary(requestSchema, request),
  };
  const answers = {};
  for (const [contentType, body] of Object.entries(bodies)) {
    const where = `${method} as ${contentType}`;
    const fromListener = await post(via.connect, method, body, contentType, headers);
    const fromGateway = await post(via.gateway, method, body, contentType, headers);
    assert.equal(fromListener.status, status, `${where}: ${fromListener.body.toString().slice(0, 300)}`);
    assert.equal(fromGateway.status, status, `${where} through the gateway`);
    const type = status === 200 ? contentType : "application/json";
    assert.equal(fromListener.headers.get("content-type"), type, where);
    assert.equal(fromGateway.headers.get("content-type"), type, where);
    let [mine, theirs] = [fromListener.body, fromGateway.body];
    if (random && status === 200) {
      const proto = contentType === "application/proto";
      const secrets = (answer) =>
        random(proto ? fromBinary(responseSchema, answer) : fromJsonString(responseSchema, answer.toString())).flatMap((value) =>
          typeof value === "string" ? [value] : proto ? [value] : [Buffer.from(value).toString("base64")],
        );
      [mine, theirs] = [blank(mine, secrets(mine)), blank(theirs, secrets(theirs))];
    }
    assert.ok(mine.equals(theirs), `${where}: the listener's body differs from the gateway's\n${mine.toString("latin1").slice(0, 400)}\n${theirs.toString("latin1").slice(0, 400)}`);
    answers[contentType === "application/proto" ? "proto" : "json"] = fromListener.body;
  }
  return {
    json: answers.json,
    proto: status === 200 ? fromBinary(responseSchema, answers.proto) : answers.proto,
  };
}

// A new hand's random values: its id and everything sealed with it.
const handRandom = (answer) => [
  answer.update.token,
  answer.update.publicView.handId,
  answer.tableTicket,
  ...answer.seatTickets.map((s) => s.ticket),
];

test("a whole PRESET hand through every unary RPC: the listener's bytes are the gateway's, JSON and binary", async () => {
  const dealt = (await same("NewHand", newHand, { random: handRandom })).proto.update;
  assert.equal(dealt.publicView.phase, pb.Phase.BETTING);
  const passive = [pb.ActionKind.SHOW, pb.ActionKind.CHECK, pb.ActionKind.CALL, pb.ActionKind.BRING_IN];
  let update = dealt;
  let actions = 0;
  while (update.publicView.phase !== pb.Phase.COMPLETE) {
    assert.ok(++actions < 100, "the hand ends");
    const { legalActions } = (await same("LegalActions", { token: update.token, seat: update.toAct })).proto;
    assert.deepEqual(legalActions, update.legalActions);
    await same("GetView", { token: update.token, privateViewSeats: [update.toAct] });
    const pick = passive.map((kind) => legalActions.find((a) => a.kind === kind)).find(Boolean) ?? legalActions[0];
    const action = { kind: pick.kind, seat: update.toAct, amountTo: pick.amountTo };
    update = (await same("ApplyAction", { token: update.token, action, privateViewSeats: [1, 2, 3] })).proto.update;
  }
  assert.ok(actions >= 10, `played to showdown (${actions} actions)`);
  await same("GetView", { token: update.token, privateViewSeats: [1, 2, 3] });
  const showdown = (await same("ResolveShowdown", { hand: { case: "token", value: update.token } })).proto;
  assert.ok(showdown.pots.length > 0, "the showdown settles the pot");
  await same("ResolveShowdown", { hand: { case: "token", value: update.token }, locale: pb.Locale.ES });
  const { phh } = (await same("ExportHandHistory", { token: update.token })).proto;
  // A replayed hand gets a new random id (and token) on every call.
  const replay = (await same("ReplayHandHistory", { phh }, { random: (r) => [r.token, r.handId] })).proto;
  assert.ok(replay.legal && replay.complete, replay.summary);
  // Rulings on the hand as dealt: a time-out, and the seat to act absent.
  await same("RuleIrregularity", { token: dealt.token, report: { kind: pb.IrregularityKind.TIMEOUT, seat: dealt.toAct } });
  const absent = (
    await same("RuleIrregularity", {
      token: dealt.token,
      report: { kind: pb.IrregularityKind.ABSENT_PLAYER, seat: dealt.toAct },
      privateViewSeats: [dealt.toAct],
    })
  ).proto;
  assert.equal(absent.ruling.ruleId, "STUD-IRR-ABS-1");
  await same("GetSigningKeys", {});
});

const detail = (error, type) => error.details?.find((d) => d.type === `google.rpc.${type}`);

test("refusals: the gateway's status, content type and error body byte for byte (details' debug JSON included), in English and Spanish", async () => {
  const { update } = (await same("NewHand", newHand, { random: handRandom })).proto;
  const notToAct = update.toAct === 1 ? 2 : 1;
  const bringIn = update.legalActions.find((a) => a.kind === pb.ActionKind.BRING_IN);
  const garbled = Uint8Array.from(update.token);
  garbled[garbled.length - 1] ^= 1;
  const cases = [
    // [STUD-BRING-*] a seat other than the bring-in acting first.
    ["ApplyAction", { token: update.token, action: { kind: pb.ActionKind.CALL, seat: notToAct } }, 400, "failed_precondition"],
    // A stale version: the caller expected another version of the hand.
    ["ApplyAction", { token: update.token, action: { kind: bringIn.kind, seat: update.toAct, amountTo: bringIn.amountTo }, expectedVersion: 7n }, 409, "aborted"],
    ["LegalActions", { token: garbled, seat: 1 }, 401, "unauthenticated"],
    ["GetView", { token: new Uint8Array([1, 2, 3]) }, 401, "unauthenticated"],
    ["NewHand", { ...newHand, seats: [{ seat: 1, stack: 20000n }] }, 400, "invalid_argument"],
    ["NewHand", { ...newHand, presetDeck: ["As", "As", "Zz"] }, 400, "invalid_argument"],
    // STUD-IRR-EXP-1 is a LIVE dealer's error: refused for a PRESET hand, naming the rule.
    ["RuleIrregularity", { token: update.token, report: { kind: pb.IrregularityKind.HOLECARD_EXPOSED, seat: 1, cards: [deck[0]] } }, 400, "failed_precondition"],
    // A token of another hand than the caller expected.
    ["ExportHandHistory", { token: update.token, expectedHandId: "0".repeat(32) }, 409, "aborted"],
  ];
  for (const language of ["", "es"]) {
    for (const [method, request, status, code] of cases) {
      const headers = language ? { "accept-language": language } : {};
      const where = `${method} ${language}`;
      const error = JSON.parse((await same(method, request, { status, headers })).json);
      assert.equal(error.code, code, where);
      assert.ok(detail(error, "ErrorInfo")?.debug.reason, `${where}: ErrorInfo with its reason`);
      const localized = detail(error, "LocalizedMessage")?.debug;
      assert.ok(localized, `${where}: LocalizedMessage`);
      if (language) assert.equal(localized.locale, "es", where);
      if (language) assert.notEqual(localized.message, error.message, `${where}: a Spanish message`);
    }
  }
});

test("tenant keys: without x-stud-tenant and x-stud-api-key unauthenticated (401) on both paths; with them the same answers", async () => {
  const tenantKey = "cd".repeat(32);
  const keysFile = path.join(server.dir, "tenants");
  fs.writeFileSync(keysFile, `acme:${tenantKey}\n`);
  const authed = await startConnectServer(["--allow_preset", "--tenant_keys_file", keysFile]);
  let authedGateway;
  try {
    authedGateway = await startGatewayOnly(authed.upstream);
    const via = { connect: authed.connect, gateway: authedGateway.gateway };
    const tenant = { "x-stud-tenant": "acme", "x-stud-api-key": tenantKey };
    for (const headers of [{}, { ...tenant, "x-stud-api-key": "ef".repeat(32) }, { "x-stud-api-key": tenantKey }]) {
      const refusal = JSON.parse((await same("NewHand", newHand, { via, headers, status: 401 })).json);
      assert.equal(refusal.code, "unauthenticated");
      assert.equal(detail(refusal, "ErrorInfo").debug.reason, "CALLER_UNAUTHENTICATED", JSON.stringify(headers));
    }
    const { update } = (await same("NewHand", newHand, { via, headers: tenant, random: handRandom })).proto;
    const bringIn = update.legalActions.find((a) => a.kind === pb.ActionKind.BRING_IN);
    const action = { token: update.token, action: { kind: bringIn.kind, seat: update.toAct, amountTo: bringIn.amountTo } };
    const moved = (await same("ApplyAction", action, { via, headers: tenant })).proto;
    assert.equal(moved.update.version, 1n);
    // The tenant's token without the tenant's key.
    await same("ApplyAction", action, { via, status: 401 });
  } finally {
    await authedGateway?.stop();
    await authed.stop();
  }
});

test("JSON the listener reads with protobuf's parser: the same answers for proto3 JSON's other forms; a body that does not parse or names an unknown field refused in protobuf's words (documented)", async () => {
  const { update } = (await same("NewHand", newHand, { random: handRandom })).proto;
  const token = Buffer.from(update.token).toString("base64");
  const bringIn = update.legalActions.find((a) => a.kind === pb.ActionKind.BRING_IN);
  const bodies = [
    // Numbers for 64-bit integers, strings for 32-bit ones, enum numbers, proto field names,
    // URL-safe base64 without padding: all proto3 JSON, read alike by both.
    ["LegalActions", { token, seat: String(update.toAct) }],
    ["ApplyAction", { token, action: { kind: bringIn.kind, seat: update.toAct, amount_to: Number(bringIn.amountTo) }, private_view_seats: [1, 2] }],
    ["ApplyAction", { token: token.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""), action: { kind: "ACTION_KIND_BRING_IN", seat: update.toAct, amountTo: String(bringIn.amountTo) } }],
  ];
  for (const [method, body] of bodies) {
    for (const contentType of ["application/json", "application/json; charset=utf-8"]) {
      const text = JSON.stringify(body);
      const mine = await post(server.connect, method, text, contentType);
      const theirs = await post(gateway.gateway, method, text, contentType);
      assert.equal(mine.status, 200, `${method} ${text.slice(0, 80)}: ${mine.body}`);
      assert.equal(theirs.status, 200, `${method} through the gateway`);
      assert.equal(mine.headers.get("content-type"), "application/json");
      assert.equal(theirs.headers.get("content-type"), "application/json");
      assert.ok(mine.body.equals(theirs.body), `${method} ${text.slice(0, 80)}`);
    }
  }
  const refused = [
    ["LegalActions", "{not json", /^the body is not JSON of this method's request: /],
    ["LegalActions", "", /^the body is not JSON of this method's request: /],
    ["LegalActions", JSON.stringify({ token, seat: 1, viewerSeat: 2 }), /viewerSeat/],
    ["ApplyAction", JSON.stringify({ token, action: { kind: "ACTION_KIND_RAISE_TO_THE_MOON", seat: 1 } }), /ACTION_KIND_RAISE_TO_THE_MOON/],
    ["LegalActions", JSON.stringify({ token, seat: "x" }), /seat/],
  ];
  for (const [method, text, message] of refused) {
    const mine = await post(server.connect, method, text, "application/json");
    const theirs = await post(gateway.gateway, method, text, "application/json");
    for (const answer of [mine, theirs]) {
      assert.equal(answer.status, 400, text);
      assert.equal(answer.headers.get("content-type"), "application/json");
      assert.equal(JSON.parse(answer.body).code, "invalid_argument");
    }
    assert.match(JSON.parse(mine.body).message, message, text);
  }
});

// A raw HTTP/1.1 connection to `base`: write bytes, read whole answers (framed by Content-Length).
async function rawConnection(base) {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  let buffered = Buffer.alloc(0);
  let closed = false;
  let wake = () => {};
  socket.on("data", (data) => {
    buffered = Buffer.concat([buffered, data]);
    wake();
  });
  socket.on("close", () => {
    closed = true;
    wake();
  });
  socket.on("error", () => {});
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return {
    socket,
    write: (bytes) => socket.write(bytes),
    closed: () => closed,
    // The next whole answer { status, headers, body }, or null once the server closed the connection.
    async next() {
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end >= 0) {
          const [statusLine, ...lines] = buffered.subarray(0, end).toString("latin1").split("\r\n");
          const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
          const length = Number(headers["content-length"] ?? 0);
          if (buffered.length >= end + 4 + length) {
            const body = buffered.subarray(end + 4, end + 4 + length);
            buffered = buffered.subarray(end + 4 + length);
            return { status: Number(statusLine.split(" ")[1]), headers, body };
          }
        }
        if (closed) return null;
        await new Promise((resolve) => (wake = resolve));
      }
    },
  };
}

function rawRequest(method, body, extraHeaders = "") {
  const bytes = Buffer.from(body);
  return Buffer.concat([
    Buffer.from(`POST /stud.v1.StudService/${method} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${extraHeaders}content-length: ${bytes.length}\r\n\r\n`),
    bytes,
  ]);
}

// A call that must still be answered: the signing keys, as the gateway gives them.
// The listener's own refusal: its code and message, and the details every error of the service
// carries (ErrorInfo with the code's reason, LocalizedMessage with the message).
function assertRefusal(answer, code, message, where = message) {
  const error = JSON.parse(answer.body);
  assert.equal(error.code, code, where);
  assert.equal(error.message, message, where);
  const [info, localized] = error.details ?? [];
  assert.equal(info?.type, "google.rpc.ErrorInfo", where);
  assert.deepEqual(info.debug, { reason: code.toUpperCase(), domain: "stud.v1" }, where);
  assert.equal(localized?.type, "google.rpc.LocalizedMessage", where);
  assert.equal(localized.debug.message, message, where);
}

async function stillAnswers(where) {
  const answer = await post(server.connect, "GetSigningKeys", "{}", "application/json");
  assert.equal(answer.status, 200, where);
  assert.equal(JSON.parse(answer.body).keys.length, 1, where);
}

test("the listener's own HTTP answers: 404, 405, 415, 501 for gzip, a bad connect-timeout-ms, the 4 MiB body limit", { timeout: 60_000 }, async () => {
  for (const method of ["NoSuchMethod", "WatchHand"]) {
    const answer = await post(server.connect, method, "{}", "application/json");
    assert.equal(answer.status, 404, method);
    assert.equal(answer.headers.get("content-type"), "text/plain; charset=utf-8");
  }
  const outside = await fetch(`${server.connect}/`, { method: "POST", body: "{}" });
  assert.equal(outside.status, 404);
  const get = await fetch(`${server.connect}/stud.v1.StudService/GetSigningKeys?message=%7B%7D&encoding=json`);
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
  const text = await post(server.connect, "GetSigningKeys", "{}", "text/plain");
  assert.equal(text.status, 415);
  assert.equal(text.headers.get("accept-post"), "application/json, application/proto");
  const gzip = await post(server.connect, "GetSigningKeys", zlib.gzipSync("{}"), "application/json", { "content-encoding": "gzip" });
  assert.equal(gzip.status, 501);
  assert.equal(gzip.headers.get("accept-encoding"), "identity");
  assert.equal(JSON.parse(gzip.body).code, "unimplemented");
  // A deadline the listener cannot read: invalid_argument (the gateway's words are connect-es's).
  for (const timeout of ["abc", "-1", "12345678901", "1.5"]) {
    const answer = await post(server.connect, "GetSigningKeys", "{}", "application/json", { "connect-timeout-ms": timeout });
    assert.equal(answer.status, 400, timeout);
    assertRefusal(answer, "invalid_argument", "connect-timeout-ms: a whole number of milliseconds, at most 10 digits", timeout);
    const theirs = await post(gateway.gateway, "GetSigningKeys", "{}", "application/json", { "connect-timeout-ms": timeout });
    assert.equal(theirs.status, 400, `${timeout} through the gateway`);
    assert.equal(JSON.parse(theirs.body).code, "invalid_argument");
  }
  assert.equal((await post(server.connect, "GetSigningKeys", "{}", "application/json", { "connect-timeout-ms": "9999999999" })).status, 200);
  // A deadline already passed: deadline_exceeded, every time. (Not compared with the gateway,
  // which answers some of these calls 200.)
  for (let i = 0; i < 5; i++) {
    const late = await post(server.connect, "GetSigningKeys", "{}", "application/json", { "connect-timeout-ms": "0" });
    assert.equal(late.status, 504);
    assert.equal(JSON.parse(late.body).code, "deadline_exceeded");
  }
  // Over the listener's 4 MiB: resource_exhausted, the body read to its end, the next call answered.
  const huge = await post(server.connect, "GetSigningKeys", Buffer.alloc(5 << 20), "application/proto");
  assert.equal(huge.status, 429);
  assertRefusal(huge, "resource_exhausted", "request larger than 4194304 bytes");
  // Under it but over stud_server's --max_message_bytes (1 MiB): resource_exhausted on both paths,
  // naming the limit (in words of their own: the gateway's are gRPC's).
  const large = Buffer.concat([Buffer.from([0x0a, 0x80, 0x80, 0x80, 0x01]), Buffer.alloc(2 << 20, 0x41)]);
  for (const base of [server.connect, gateway.gateway]) {
    const answer = await post(base, "LegalActions", large, "application/proto");
    assert.equal(answer.status, 429, base);
    const error = JSON.parse(answer.body);
    assert.equal(error.code, "resource_exhausted", base);
    assert.match(error.message, /1048576/, base);
  }
  await stillAnswers("after the large bodies");
});

test("the listener's connections: keep-alive, pipelining, 32 KiB of headers, connections closed or stalled mid-body", { timeout: 60_000 }, async () => {
  const keys = await post(server.connect, "GetSigningKeys", "{}", "application/json");
  // Two calls, one after the other, then two written at once: four answers on one connection.
  const one = await rawConnection(server.connect);
  for (let i = 0; i < 2; i++) {
    one.write(rawRequest("GetSigningKeys", "{}"));
    const answer = await one.next();
    assert.equal(answer.status, 200);
    assert.ok(answer.body.equals(keys.body), `call ${i + 1} on the connection`);
  }
  one.write(Buffer.concat([rawRequest("GetSigningKeys", "{}"), rawRequest("LegalActions", '{"token":"AQID"}')]));
  assert.equal((await one.next()).status, 200);
  const refused = await one.next();
  assert.equal(refused.status, 401);
  assert.equal(JSON.parse(refused.body).code, "unauthenticated");
  assert.equal(one.closed(), false, "the connection stays open");
  one.socket.destroy();

  // Headers over the connection's 32 KiB: 431 and the connection closed; the server answers the next call.
  const big = await rawConnection(server.connect);
  big.write(rawRequest("GetSigningKeys", "{}", `x-filler: ${"a".repeat(40_000)}\r\n`));
  const tooLarge = await big.next();
  assert.equal(tooLarge.status, 431);
  assert.equal(await big.next(), null, "the connection is closed after the 431");
  // Just under it: served.
  const under = await rawConnection(server.connect);
  under.write(rawRequest("GetSigningKeys", "{}", `x-filler: ${"a".repeat(24_000)}\r\n`));
  assert.equal((await under.next()).status, 200);
  under.socket.destroy();
  await stillAnswers("after headers over 32 KiB");

  // Callers that leave mid-body, and callers that stall mid-body (more than the listener's
  // threads): neither keeps the next caller from an answer.
  for (let i = 0; i < 20; i++) {
    const gone = await rawConnection(server.connect);
    gone.write(rawRequest("GetSigningKeys", "{}").subarray(0, -1 - (i % 3)));
    gone.socket.destroy();
  }
  await stillAnswers("after 20 callers left mid-body");
  const stalled = [];
  for (let i = 0; i < 12; i++) {
    const caller = await rawConnection(server.connect);
    caller.write(rawRequest("LegalActions", '{"token":"AQID"}').subarray(0, -3));
    stalled.push(caller);
  }
  await stillAnswers("while 12 callers stall mid-body");
  // A stalled caller that finishes its body gets its answer.
  stalled[0].write('D"}');
  assert.equal((await stalled[0].next()).status, 401);
  for (const caller of stalled) caller.socket.destroy();
  await stillAnswers("after the stalled callers left");
});

test("the bodies the listener holds at once are bounded (--connect_max_buffered_mib)", { timeout: 60_000 }, async () => {
  const small = await startConnectServer(["--connect_max_buffered_mib=1"]);
  try {
    // 600 KB held by a caller that has not finished its body ...
    const body = `{"token":"${"A".repeat(600_000)}"}`;
    const first = await rawConnection(small.connect);
    first.write(rawRequest("LegalActions", body).subarray(0, -2));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // ... so another 600 KB would pass 1 MiB: refused at once, without waiting for the first.
    const second = await rawConnection(small.connect);
    second.write(rawRequest("LegalActions", body));
    const refused = await second.next();
    assert.equal(refused.status, 429);
    const error = JSON.parse(refused.body);
    assert.equal(error.code, "resource_exhausted");
    assert.match(error.message, /receiving 1048576 bytes of requests already/);
    // The first caller finishes: its call is served (its token is not a hand's), then the
    // memory is free again and the same body is served too.
    first.write('"}');
    assert.equal((await first.next()).status, 401);
    second.write(rawRequest("LegalActions", body));
    assert.equal((await second.next()).status, 401);
    first.socket.destroy();
    second.socket.destroy();
  } finally {
    await small.stop();
  }
});
