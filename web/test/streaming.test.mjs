// Server streams (WatchHand) through the built gateway, against a small Node
// gRPC upstream in this process that plays the service's side on cue: every
// protocol (Connect JSON and binary over HTTP/1.1 and HTTP/2, gRPC-Web binary
// and JSON, gRPC) receives each message before the upstream produces the next
// one (so the gateway cannot be buffering), the stream's trailers, an error
// after a message with its code and details (Connect: the end-stream message,
// with a readable "debug"), the upstream call cancelled when the caller goes
// away, and a hundred open streams that add no thread to the gateway. Also:
// accept-language reaches the upstream and its LocalizedMessage comes back
// readable ("debug") in a Connect JSON error.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http2 from "node:http2";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { ErrorInfoSchema, LocalizedMessageSchema } from "../gen/google/rpc/error_details_pb.js";
import { startGatewayOnly } from "./harness.mjs";

// Longest the upstream waits for a cue; a stream stuck behind a buffering
// gateway ends with this error instead of hanging the test.
const CUE_WAIT_MS = 10_000;

// Per hand id: the cue that lets the upstream send its next message, and the
// promise settled when the upstream sees its call cancelled.
const cues = new Map();
const cancelled = new Map();

function waiter(map, key) {
  if (!map.has(key)) {
    let resolve;
    const promise = new Promise((r) => (resolve = r));
    map.set(key, { promise, resolve });
  }
  return map.get(key);
}

function cue(handId) {
  const entry = waiter(cues, handId);
  cues.delete(handId);
  entry.resolve();
}

async function awaitCue(handId, signal) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new ConnectError("no cue: the gateway held a message back", Code.DeadlineExceeded)), CUE_WAIT_MS);
  });
  try {
    await Promise.race([waiter(cues, handId).promise, timeout, new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)))]);
  } finally {
    clearTimeout(timer);
  }
}

const update = (n) => ({ update: { token: new Uint8Array([n]) } });

// The upstream's WatchHand, by hand id prefix:
//   step-*  three messages, each after the caller's cue for the previous one;
//           trailer x-stud-watch: done
//   fail-*  one message, then FAILED_PRECONDITION with ErrorInfo
//   hold-*  one message, then waits for the caller to go away
const upstreamImpl = {
  // Refuses every call with the caller's language in a LocalizedMessage, as
  // stud_server does for a request header accept-language: es.
  async getView(request, ctx) {
    const locale = ctx.requestHeader.get("accept-language") ?? "";
    throw new ConnectError(`unknown hand ${request.handId}`, Code.NotFound, undefined, [
      { desc: ErrorInfoSchema, value: { reason: "HAND_NOT_FOUND", domain: "stud.v1" } },
      { desc: LocalizedMessageSchema, value: { locale, message: locale.startsWith("es") ? `mano desconocida ${request.handId}` : `unknown hand ${request.handId}` } },
    ]);
  },
  async *watchHand(request, ctx) {
    const id = request.handId;
    if (id.startsWith("step-")) {
      for (let n = 1; n <= 3; n++) {
        if (n > 1) await awaitCue(id, ctx.signal);
        yield update(n);
      }
      ctx.responseTrailer.set("x-stud-watch", "done");
    } else if (id.startsWith("fail-")) {
      yield update(1);
      throw new ConnectError("hand abc is not in the ledger", Code.FailedPrecondition, undefined, [
        { desc: ErrorInfoSchema, value: { reason: "HAND_NOT_IN_LEDGER", domain: "stud.v1" } },
      ]);
    } else if (id.startsWith("hold-")) {
      yield update(1);
      await new Promise((resolve) => {
        if (ctx.signal.aborted) resolve();
        ctx.signal.addEventListener("abort", resolve);
      });
      waiter(cancelled, id).resolve();
    }
  },
};

let upstream;
let gateway;
const clients = {};

before(async () => {
  upstream = http2.createServer(connectNodeAdapter({ routes: (router) => router.service(pb.StudService, upstreamImpl) }));
  await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  // One process: its pid is the one serving the streams (threads counted below).
  gateway = await startGatewayOnly(`127.0.0.1:${upstream.address().port}`, ["--workers=1"]);
  const baseUrl = gateway.gateway;
  clients["connect+json 1.1"] = createClient(pb.StudService, createConnectTransport({ baseUrl, httpVersion: "1.1" }));
  clients["connect+proto 1.1"] = createClient(pb.StudService, createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: true }));
  clients["connect+json h2c"] = createClient(pb.StudService, createConnectTransport({ baseUrl, httpVersion: "2" }));
  clients["grpc-web"] = createClient(pb.StudService, createGrpcWebTransport({ baseUrl, httpVersion: "1.1" }));
  clients["grpc-web+json"] = createClient(pb.StudService, createGrpcWebTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: false }));
  clients["grpc (h2c)"] = createClient(pb.StudService, createGrpcTransport({ baseUrl }));
});

after(async () => {
  await gateway?.stop();
  upstream?.close();
});

test("each message reaches the caller before the upstream sends the next; trailers follow", async () => {
  for (const [name, client] of Object.entries(clients)) {
    const handId = `step-${name}`;
    const got = [];
    let trailer;
    for await (const message of client.watchHand({ handId }, { onTrailer: (t) => (trailer = t) })) {
      got.push(message.update.token[0]);
      cue(handId);
    }
    assert.deepEqual(got, [1, 2, 3], name);
    assert.equal(trailer?.get("x-stud-watch"), "done", `${name}: the upstream's trailer`);
  }
});

test("an error after a message keeps its code, message and details", async () => {
  for (const [name, client] of Object.entries(clients)) {
    const got = [];
    let error;
    try {
      for await (const message of client.watchHand({ handId: `fail-${name}` })) got.push(message.update.token[0]);
    } catch (e) {
      error = ConnectError.from(e);
    }
    assert.deepEqual(got, [1], name);
    assert.equal(error?.code, Code.FailedPrecondition, name);
    assert.equal(error.rawMessage, "hand abc is not in the ledger", name);
    assert.equal(error.findDetails(ErrorInfoSchema)[0]?.reason, "HAND_NOT_IN_LEDGER", name);
  }
});

// Connect streaming envelopes: 1 flag byte, 4 length bytes, the message.
function envelope(flags, bytes) {
  const out = Buffer.alloc(5 + bytes.length);
  out[0] = flags;
  out.writeUInt32BE(bytes.length, 1);
  Buffer.from(bytes).copy(out, 5);
  return out;
}

function envelopes(buffer) {
  const out = [];
  for (let at = 0; at + 5 <= buffer.length; ) {
    const length = buffer.readUInt32BE(at + 1);
    out.push({ flags: buffer[at], json: JSON.parse(buffer.subarray(at + 5, at + 5 + length).toString()) });
    at += 5 + length;
  }
  return out;
}

test("Connect JSON by hand: the end-stream message carries the error and readable details", async () => {
  const response = await fetch(`${gateway.gateway}/stud.v1.StudService/WatchHand`, {
    method: "POST",
    headers: { "content-type": "application/connect+json" },
    body: envelope(0, Buffer.from(JSON.stringify({ handId: "fail-by-hand" }))),
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/connect+json");
  const [first, end] = envelopes(Buffer.from(await response.arrayBuffer()));
  assert.deepEqual(first, { flags: 0, json: { update: { token: "AQ==" } } });
  assert.equal(end.flags, 2, "the end-stream flag");
  assert.equal(end.json.error.code, "failed_precondition");
  assert.equal(end.json.error.message, "hand abc is not in the ledger");
  const info = end.json.error.details.find((d) => d.type === "google.rpc.ErrorInfo");
  assert.deepEqual(info.debug, { reason: "HAND_NOT_IN_LEDGER", domain: "stud.v1" });
});

async function settledWithin(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${CUE_WAIT_MS} ms`)), CUE_WAIT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function openAndLeave(client, handId) {
  const abort = new AbortController();
  const stream = client.watchHand({ handId }, { signal: abort.signal })[Symbol.asyncIterator]();
  const first = await stream.next();
  assert.equal(first.value?.update.token[0], 1, handId);
  return () => {
    abort.abort();
    return stream.next().catch(() => undefined);
  };
}

test("a caller that goes away cancels the upstream call", async () => {
  for (const [name, client] of Object.entries(clients)) {
    const handId = `hold-${name}`;
    const leave = await openAndLeave(client, handId);
    await leave();
    await settledWithin(waiter(cancelled, handId).promise, `${name}: the upstream call cancelled`);
  }
});

function threadsOf(pid) {
  return Number(/^Threads:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
}

test("a hundred open streams hold no thread each, and all end when their callers leave", async () => {
  const client = clients["grpc (h2c)"];
  // One stream first, so that anything started lazily is running before counting.
  const warm = await openAndLeave(client, "hold-warm");
  await warm();
  const threadsBefore = threadsOf(gateway.pid);
  const ids = Array.from({ length: 100 }, (_, i) => `hold-many-${i}`);
  const leaves = await Promise.all(ids.map((id) => openAndLeave(client, id)));
  const threadsOpen = threadsOf(gateway.pid);
  assert.ok(threadsOpen - threadsBefore < 4, `threads ${threadsBefore} -> ${threadsOpen} with 100 streams open`);
  await Promise.all(leaves.map((leave) => leave()));
  await settledWithin(Promise.all(ids.map((id) => waiter(cancelled, id).promise)), "every upstream call cancelled");
});

test("accept-language reaches the upstream; a Connect JSON error carries the localized message readable", async () => {
  const response = await fetch(`${gateway.gateway}/stud.v1.StudService/GetView`, {
    method: "POST",
    headers: { "content-type": "application/json", "accept-language": "es-ES,es;q=0.9" },
    body: JSON.stringify({ handId: "0badc0de" }),
  });
  assert.equal(response.status, 404);
  const body = await response.json();
  assert.equal(body.code, "not_found");
  const localized = body.details.find((d) => d.type === "google.rpc.LocalizedMessage");
  assert.deepEqual(localized.debug, { locale: "es-ES,es;q=0.9", message: "mano desconocida 0badc0de" });
  for (const [name, client] of Object.entries(clients)) {
    let error;
    try {
      await client.getView({ handId: "0badc0de" }, { headers: { "accept-language": "es" } });
    } catch (e) {
      error = ConnectError.from(e);
    }
    assert.equal(error?.findDetails(LocalizedMessageSchema)[0]?.message, "mano desconocida 0badc0de", name);
  }
});
