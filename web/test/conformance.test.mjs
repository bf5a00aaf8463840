// The gateway against a real stud_server: every stud.v1 RPC through Connect
// JSON, Connect binary, gRPC-Web and gRPC gives the same answer as calling
// stud_server directly (byte for byte once serialized), errors keep their code,
// message and google.rpc details (ErrorInfo rule ID, LocalizedMessage), the JSON
// forms are strict proto3 JSON (an unknown field or enum name is refused, named),
// tenant metadata passes through, and the gateway's own
// health and metrics endpoints answer.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { ErrorInfoSchema, LocalizedMessageSchema } from "../gen/google/rpc/error_details_pb.js";
import net from "node:net";
import { startGatewayOnly, startStack } from "./harness.mjs";

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
let stack;
let direct;
const protocols = {};

before(async () => {
  stack = await startStack();
  direct = createClient(pb.StudService, createGrpcTransport({ baseUrl: `http://${stack.upstream}` }));
  const baseUrl = stack.gateway;
  protocols["connect+json"] = createClient(pb.StudService, createConnectTransport({ baseUrl, httpVersion: "1.1" }));
  protocols["connect+proto"] = createClient(
    pb.StudService,
    createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: true }),
  );
  protocols["grpc-web"] = createClient(pb.StudService, createGrpcWebTransport({ baseUrl, httpVersion: "1.1" }));
  protocols["grpc-web+json"] = createClient(
    pb.StudService,
    createGrpcWebTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: false }),
  );
  protocols["grpc (h2c)"] = createClient(pb.StudService, createGrpcTransport({ baseUrl }));
});
after(() => stack?.stop());

const newHandRequest = {
  variant: pb.Variant.STUD,
  stakes: { kind: { case: "preset", value: "$15-$30" } },
  seats: [1, 2, 3].map((seat) => ({ seat, stack: 20000n })),
  privateViewSeats: [1, 2, 3],
};

// Plays the hand forward from `update` with passive actions until it is complete.
async function playOut(update) {
  const order = [pb.ActionKind.SHOW, pb.ActionKind.CHECK, pb.ActionKind.CALL, pb.ActionKind.BRING_IN];
  for (let step = 0; step < 100 && update.publicView.phase !== pb.Phase.COMPLETE; step++) {
    const legal = update.legalActions;
    const pick = order.map((k) => legal.find((a) => a.kind === k)).find(Boolean) ?? legal[0];
    const answer = await direct.applyAction({
      token: update.token,
      action: { kind: pick.kind, seat: update.toAct, amountTo: pick.amountTo },
    });
    update = answer.update;
  }
  assert.equal(update.publicView.phase, pb.Phase.COMPLETE, "the hand reaches its end");
  return update;
}

// Every RPC, as (name, request schema, response schema, request) on a hand in progress
// and on a complete one.
async function everyRpc() {
  const fresh = (await direct.newHand(newHandRequest)).update;
  const done = await playOut(fresh);
  const phh = fs.readFileSync(
    path.join(repo, "tests/data/phh", fs.readdirSync(path.join(repo, "tests/data/phh")).sort()[0]),
    "utf8",
  );
  const bringIn = fresh.legalActions.find((a) => a.kind === pb.ActionKind.BRING_IN);
  return [
    ["applyAction", pb.ApplyActionResponseSchema, { token: fresh.token, action: { kind: bringIn.kind, seat: fresh.toAct, amountTo: bringIn.amountTo }, privateViewSeats: [fresh.toAct] }],
    ["legalActions", pb.LegalActionsResponseSchema, { token: fresh.token, seat: fresh.toAct }],
    ["getView", pb.GetViewResponseSchema, { token: fresh.token, privateViewSeats: [1, 2, 3] }],
    ["exportHandHistory", pb.ExportHandHistoryResponseSchema, { token: done.token }],
    ["resolveShowdown", pb.ResolveShowdownResponseSchema, { hand: { case: "token", value: done.token }, locale: pb.Locale.ES }],
    ["ruleIrregularity", pb.RuleIrregularityResponseSchema, { token: fresh.token, report: { kind: pb.IrregularityKind.TIMEOUT, seat: fresh.toAct } }],
    // A replayed hand gets a fresh random id (and so a new token) on every call.
    ["replayHandHistory", pb.ReplayHandHistoryResponseSchema, { phh }, (r) => ({ ...r, token: new Uint8Array(), handId: "" })],
  ];
}

test("every RPC through every protocol answers exactly as stud_server does", async () => {
  const calls = await everyRpc();
  for (const [method, schema, request, normalize = (r) => r] of calls) {
    const expected = toBinary(schema, normalize(await direct[method](request)));
    for (const [name, client] of Object.entries(protocols)) {
      const got = toBinary(schema, normalize(await client[method](request)));
      assert.deepEqual(Buffer.from(got), Buffer.from(expected), `${method} through ${name}`);
    }
  }
});

test("NewHand through every protocol deals a hand the next call accepts", async () => {
  for (const [name, client] of Object.entries(protocols)) {
    const { update, seatTickets } = await client.newHand(newHandRequest);
    assert.equal(update.publicView.seats.length, 3, name);
    assert.equal(seatTickets.length, 3, name);
    assert.equal(update.privateViews.length, 3, name);
    assert.match(update.publicView.handId, /^[0-9a-f]{32}$/, name);
    const legal = await client.legalActions({ token: update.token, seat: update.toAct });
    assert.deepEqual(legal.legalActions, update.legalActions, name);
  }
});

async function errorOf(promise) {
  try {
    await promise;
  } catch (error) {
    return ConnectError.from(error);
  }
  assert.fail("the call was expected to fail");
}

test("errors keep their code, message and details (rule ID, localized message) through every protocol", async () => {
  const { update } = await direct.newHand(newHandRequest);
  const notToAct = update.toAct === 1 ? 2 : 1;
  const cases = [
    // [STUD-BRING-*] a seat other than the bring-in acting first: a rules refusal.
    ["applyAction", { token: update.token, action: { kind: pb.ActionKind.CALL, seat: notToAct } }, Code.FailedPrecondition],
    ["legalActions", { token: new Uint8Array([1, 2, 3]) }, Code.Unauthenticated],
    ["newHand", { ...newHandRequest, stakes: { kind: { case: "preset", value: "$15-$31" } } }, Code.InvalidArgument],
  ];
  for (const [method, request, code] of cases) {
    const expected = await errorOf(direct[method](request));
    assert.equal(expected.code, code, `${method} directly`);
    const reason = expected.findDetails(ErrorInfoSchema)[0]?.reason;
    assert.ok(reason, `${method}: stud_server attaches ErrorInfo`);
    for (const [name, client] of Object.entries(protocols)) {
      const got = await errorOf(client[method](request));
      const where = `${method} through ${name}`;
      assert.equal(got.code, expected.code, where);
      assert.equal(got.rawMessage, expected.rawMessage, where);
      assert.deepEqual(got.details.map((d) => [d.type, Buffer.from(d.value)]), expected.details.map((d) => [d.type, Buffer.from(d.value)]), where);
      assert.equal(got.findDetails(ErrorInfoSchema)[0].reason, reason, where);
      assert.equal(got.findDetails(LocalizedMessageSchema)[0].message, expected.rawMessage, where);
    }
  }
});

test("accept-language reaches stud_server: its Spanish LocalizedMessage comes back in every protocol, readable in Connect JSON", async () => {
  const request = { token: new Uint8Array([1, 2, 3]) };
  const expected = await errorOf(direct.legalActions(request, { headers: { "accept-language": "es" } }));
  const spanish = expected.findDetails(LocalizedMessageSchema)[0];
  assert.equal(spanish?.locale, "es", "stud_server answers in Spanish");
  for (const [name, client] of Object.entries(protocols)) {
    const got = await errorOf(client.legalActions(request, { headers: { "accept-language": "es-MX,es;q=0.9" } }));
    assert.equal(got.findDetails(LocalizedMessageSchema)[0]?.message, spanish.message, name);
  }
  const { status, json } = await postJson("LegalActions", { token: "AQID" }, { "accept-language": "es" });
  assert.equal(status, 401);
  const localized = json.details.find((d) => d.type === "google.rpc.LocalizedMessage");
  assert.deepEqual(localized.debug, { locale: "es", message: spanish.message });
});

const newHandJson = {
  variant: "VARIANT_STUD",
  stakes: { preset: "$15-$30" },
  seats: [{ seat: 1, stack: "20000" }, { seat: 2, stack: "20000" }],
};

async function postJson(method, body, headers = {}) {
  const response = await fetch(`${stack.gateway}/stud.v1.StudService/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

test("plain JSON over HTTP/1.1 (the README's curl call): enum names, 64-bit integers as strings, bytes as base64", async () => {
  const { status, json } = await postJson("NewHand", {
    variant: "VARIANT_STUD",
    stakes: { preset: "$15-$30" },
    seats: [{ seat: 1, stack: "20000" }, { seat: 2, stack: 20000 }],
  });
  assert.equal(status, 200);
  const view = json.update.publicView;
  assert.equal(view.variant, "VARIANT_STUD");
  assert.equal(view.phase, "PHASE_BETTING");
  assert.equal(view.stakes.bringIn, "500");
  assert.equal(typeof view.seats[0].stack, "string");
  assert.match(json.update.token, /^[A-Za-z0-9+/]+=*$/);
  const legal = await postJson("LegalActions", { token: json.update.token, seat: json.update.toAct });
  assert.equal(legal.status, 200);
  assert.ok(legal.json.legalActions.some((a) => a.kind === "ACTION_KIND_BRING_IN" && a.amountTo === "500"));
  // A refused action: HTTP status, Connect error code and readable details.
  const other = json.update.toAct === 1 ? 2 : 1;
  const refused = await postJson("ApplyAction", { token: json.update.token, action: { kind: "ACTION_KIND_CALL", seat: other } });
  assert.equal(refused.status, 400);
  assert.equal(refused.json.code, "failed_precondition");
  const info = refused.json.details.find((d) => d.type === "google.rpc.ErrorInfo");
  assert.match(info.debug.reason, /^STUD-[A-Z]+-\d+/);
  assert.equal(info.debug.domain, "stud.v1");
  // Malformed JSON is the gateway's own INVALID_ARGUMENT, never a crash.
  const bad = await fetch(`${stack.gateway}/stud.v1.StudService/NewHand`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{not json",
  });
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).code, "invalid_argument");
});

test("strict JSON: an unknown field or enum name is INVALID_ARGUMENT naming it, never silently dropped", async () => {
  const { json: dealt } = await postJson("NewHand", newHandJson);
  const token = dealt.update.token;
  const cases = [
    // A misspelt optional field would otherwise be dropped, and the version check with it.
    ["ApplyAction", { token, action: { kind: "ACTION_KIND_BRING_IN", seat: dealt.update.toAct }, expectedVerison: "1" }, /key "expectedVerison" is unknown/],
    ["NewHand", { ...newHandJson, variant: "VARIANT_STUDD" }, /^stud\.v1\.NewHandRequest\.variant: "VARIANT_STUDD" is not a stud\.v1\.Variant \(VARIANT_STUD, VARIANT_STUD_HI_LO or VARIANT_RAZZ\)$/],
    // Deeper: a repeated message's enum, with its index.
    ["ApplyAction", { token, action: { kind: "ACTION_KIND_RAISE_TO_THE_MOON", seat: 1 } }, /^stud\.v1\.ApplyActionRequest\.action\.kind: "ACTION_KIND_RAISE_TO_THE_MOON" is not a stud\.v1\.ActionKind/],
    ["NewHand", { ...newHandJson, stakes: { presett: "$15-$30" } }, /stud\.v1\.Stakes.*key "presett" is unknown/],
    ["LegalActions", { token, seat: 1, viewerSeat: 2 }, /key "viewerSeat" is unknown/],
  ];
  for (const [method, body, message] of cases) {
    const { status, json } = await postJson(method, body);
    assert.equal(status, 400, `${method} ${JSON.stringify(body).slice(0, 60)}`);
    assert.equal(json.code, "invalid_argument");
    assert.match(json.message, message);
  }
  // The same forms without the mistakes are accepted.
  assert.equal((await postJson("LegalActions", { token, seat: 1 })).status, 200);
  assert.equal((await postJson("ApplyAction", { token, action: { kind: "ACTION_KIND_BRING_IN", seat: dealt.update.toAct, amountTo: dealt.update.legalActions.find((a) => a.kind === "ACTION_KIND_BRING_IN").amountTo }, expectedVersion: dealt.update.version ?? "0" })).status, 200);
});

test("tenant keys and trace context pass through to stud_server", async () => {
  const tenantKey = "cd".repeat(32);
  const keysFile = path.join(stack.dir, "tenants");
  fs.writeFileSync(keysFile, `acme:${tenantKey}\n`);
  const authed = await startStack(["--tenant_keys_file", keysFile]);
  try {
    const body = { variant: "VARIANT_RAZZ", stakes: { preset: "$1-$2" }, seats: [{ seat: 1, stack: "5000" }, { seat: 2, stack: "5000" }] };
    const refused = await fetch(`${authed.gateway}/stud.v1.StudService/NewHand`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.equal(refused.status, 401);
    const refusal = await refused.json();
    assert.equal(refusal.details.find((d) => d.type === "google.rpc.ErrorInfo").debug.reason, "CALLER_UNAUTHENTICATED");
    const accepted = await fetch(`${authed.gateway}/stud.v1.StudService/NewHand`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stud-tenant": "acme",
        "x-stud-api-key": tenantKey,
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      },
      body: JSON.stringify(body),
    });
    assert.equal(accepted.status, 200);
    assert.equal((await accepted.json()).update.publicView.variant, "VARIANT_RAZZ");
  } finally {
    await authed.stop();
  }
});

test("health, readiness and metrics", async () => {
  assert.equal((await fetch(`${stack.gateway}/healthz`)).status, 200);
  assert.equal((await fetch(`${stack.gateway}/readyz`)).status, 200);
  const metrics = await (await fetch(`${stack.gateway}/metrics`)).text();
  for (const protocol of ["connect", "grpc_web", "grpc"]) {
    assert.match(metrics, new RegExp(`stud_web_calls_total\\{method="ApplyAction",protocol="${protocol}",code="OK"\\} [1-9]`));
  }
  assert.match(metrics, /stud_web_calls_total\{method="ApplyAction",protocol="connect",code="FAILED_PRECONDITION"\} [1-9]/);
  assert.match(metrics, /stud_web_call_seconds_count\{method="NewHand"\} [1-9]/);
  assert.equal((await fetch(`${stack.gateway}/nowhere.html`)).status, 404);
  assert.equal((await fetch(`${stack.gateway}/`)).headers.get("content-type"), "text/html; charset=utf-8");
});

test("deadlines reach stud_server: the caller's, else --default_timeout_ms", async () => {
  // An upstream that accepts connections and never answers: only a deadline ends the call.
  const sockets = new Set();
  const silent = net.createServer((socket) => sockets.add(socket));
  await new Promise((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const gateway = await startGatewayOnly(`127.0.0.1:${silent.address().port}`, ["--default_timeout_ms=700"]);
  try {
    const call = async (headers) => {
      const started = Date.now();
      const response = await fetch(`${gateway.gateway}/stud.v1.StudService/LegalActions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ token: "AAAA" }),
      });
      return { status: response.status, body: await response.json(), ms: Date.now() - started };
    };
    const callers = await call({ "connect-timeout-ms": "300" });
    assert.equal(callers.body.code, "deadline_exceeded");
    assert.ok(callers.ms >= 250 && callers.ms < 5000, `the caller's 300 ms deadline (took ${callers.ms} ms)`);
    const defaulted = await call({});
    assert.equal(defaulted.body.code, "deadline_exceeded");
    assert.ok(defaulted.ms >= 600 && defaulted.ms < 5000, `the default 700 ms deadline (took ${defaulted.ms} ms)`);
    assert.equal((await fetch(`${gateway.gateway}/readyz`)).status, 503);
    // gRPC callers are passed through as bytes: the gateway keeps their deadline too.
    const grpc = createClient(pb.StudService, createGrpcTransport({ baseUrl: gateway.gateway }));
    const started = Date.now();
    const late = await errorOf(grpc.legalActions({ token: new Uint8Array([1]) }, { timeoutMs: 300 }));
    assert.equal(late.code, Code.DeadlineExceeded);
    assert.ok(Date.now() - started < 5000, "the gRPC caller's deadline");
    const defaulted2 = await errorOf(grpc.legalActions({ token: new Uint8Array([1]) }));
    assert.equal(defaulted2.code, Code.DeadlineExceeded, "the default deadline for gRPC callers");
  } finally {
    await gateway.stop();
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});

test("stud_server unreachable: UNAVAILABLE through every protocol", async () => {
  const closed = net.createServer();
  await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = closed.address().port;
  await new Promise((resolve) => closed.close(resolve));
  const gateway = await startGatewayOnly(`127.0.0.1:${port}`, ["--workers=1"]);
  try {
    const baseUrl = gateway.gateway;
    const clients = {
      "connect+json": createClient(pb.StudService, createConnectTransport({ baseUrl, httpVersion: "1.1" })),
      "grpc-web": createClient(pb.StudService, createGrpcWebTransport({ baseUrl, httpVersion: "1.1" })),
      "grpc (h2c)": createClient(pb.StudService, createGrpcTransport({ baseUrl })),
    };
    for (const [name, client] of Object.entries(clients)) {
      const error = await errorOf(client.legalActions({ token: new Uint8Array([1]) }));
      assert.equal(error.code, Code.Unavailable, name);
    }
  } finally {
    await gateway.stop();
  }
});

test("CORS: listed origins may call from the browser, others get no CORS headers; off by default", async () => {
  const gateway = await startGatewayOnly(stack.upstream, ["--cors_origins=https://app.example, https://m.example"]);
  try {
    const preflight = (origin) =>
      fetch(`${gateway.gateway}/stud.v1.StudService/NewHand`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, connect-protocol-version, x-stud-tenant, x-stud-api-key, traceparent, x-not-forwarded",
        },
      });
    const allowed = await preflight("https://m.example");
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get("access-control-allow-origin"), "https://m.example");
    assert.equal(allowed.headers.get("access-control-allow-headers"), "content-type, connect-protocol-version, x-stud-tenant, x-stud-api-key, traceparent");
    assert.match(allowed.headers.get("access-control-allow-methods"), /POST/);
    const refused = await preflight("https://evil.example");
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    // The call itself carries the origin and may read the status headers.
    const call = await fetch(`${gateway.gateway}/stud.v1.StudService/NewHand`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://app.example" },
      body: JSON.stringify({ variant: "VARIANT_STUD", stakes: { preset: "$1-$2" }, seats: [{ seat: 1, stack: "500" }, { seat: 2, stack: "500" }] }),
    });
    assert.equal(call.status, 200);
    assert.equal(call.headers.get("access-control-allow-origin"), "https://app.example");
    assert.match(call.headers.get("access-control-expose-headers"), /Grpc-Status-Details-Bin/);
  } finally {
    await gateway.stop();
  }
  // The stack's own gateway runs without --cors_origins: no CORS headers at all.
  const plain = await fetch(`${stack.gateway}/healthz`, { headers: { origin: "https://app.example" } });
  assert.equal(plain.headers.get("access-control-allow-origin"), null);
});
