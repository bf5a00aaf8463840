// --workers: several gateway processes on one port (Node cluster), against a
// small Node gRPC upstream in this process: the calls of every worker add up
// in /metrics, a worker that dies is replaced, SIGTERM drains every worker and
// exits 0, and a port already in use ends the gateway with exit 1 instead of a
// restart loop; --upstream_connections opens that many HTTP/2 sessions to the
// upstream, uses them in turn, and opens new ones once they are lost.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { startGatewayOnly } from "./harness.mjs";

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
let upstream;
let upstreamAddress;
const upstreamSessions = new Set();

before(async () => {
  const impl = {
    async getView() {
      throw new ConnectError("no such hand", Code.NotFound);
    },
  };
  upstream = http2.createServer(connectNodeAdapter({ routes: (router) => router.service(pb.StudService, impl) }));
  upstream.on("session", (session) => {
    upstreamSessions.add(session);
    session.on("close", () => upstreamSessions.delete(session));
  });
  await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamAddress = `127.0.0.1:${upstream.address().port}`;
});

after(() => upstream?.close());

function childrenOf(pid) {
  const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

// One GetView on a fresh HTTP/1.1 connection (the primary hands connections to
// the workers in turn).
function callOnNewConnection(base) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/stud.v1.StudService/GetView`,
      { method: "POST", agent: false, headers: { "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ handId: "00" }));
  });
}

async function waitFor(what, check) {
  for (let i = 0; i < 200; i++) {
    const value = check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${what}: not within 10 s`);
}

test("two workers serve one port; /metrics counts the calls of both", async () => {
  const gateway = await startGatewayOnly(upstreamAddress, ["--workers=2"]);
  try {
    assert.equal(childrenOf(gateway.pid).length, 2, "two worker processes");
    const statuses = await Promise.all(Array.from({ length: 8 }, () => callOnNewConnection(gateway.gateway)));
    assert.deepEqual(statuses, Array(8).fill(404));
    const metrics = await (await fetch(`${gateway.gateway}/metrics`)).text();
    assert.match(metrics, /stud_web_calls_total\{method="GetView",protocol="connect",code="NOT_FOUND"\} 8\n/);
  } finally {
    await gateway.stop();
  }
});

test("a worker that dies is replaced; SIGTERM drains every worker and exits 0", async () => {
  const child = spawn(process.execPath, [path.join(webDir, "dist", "gateway.mjs"), "--listen=127.0.0.1:0", `--upstream=${upstreamAddress}`, "--workers=2"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  try {
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const base = await waitFor("listening", () => /stud_web listening on (\S+)/.exec(out)?.[1]);
    const [first] = childrenOf(child.pid);
    process.kill(first, "SIGKILL");
    const replaced = await waitFor("a new worker", () => {
      const now = childrenOf(child.pid);
      return now.length === 2 && !now.includes(first) && now;
    });
    assert.equal(replaced.length, 2);
    // The replacement serves: calls on new connections reach both workers.
    const statuses = await Promise.all(Array.from({ length: 4 }, () => callOnNewConnection(base)));
    assert.deepEqual(statuses, Array(4).fill(404));
    child.kill("SIGTERM");
    assert.deepEqual(await exited, { code: 0, signal: null });
  } finally {
    child.kill("SIGKILL");
  }
});

test("a port already in use: one clear line and exit 1, no restart loop", async () => {
  const holder = net.createServer();
  await new Promise((resolve) => holder.listen(0, "127.0.0.1", resolve));
  try {
    const child = spawn(process.execPath, [path.join(webDir, "dist", "gateway.mjs"), `--listen=127.0.0.1:${holder.address().port}`, `--upstream=${upstreamAddress}`, "--workers=2"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await new Promise((resolve) => child.once("exit", resolve));
    clearTimeout(timer);
    assert.equal(code, 1);
    // One JSON log line (src/logging.ts) naming the address and the error.
    assert.match(err, /"event":"listen_failed","listen":"127\.0\.0\.1:\d+","error":"EADDRINUSE"/);
  } finally {
    holder.close();
  }
});

test("--upstream_connections: that many sessions to the upstream, used in turn, reopened once lost", async () => {
  const gateway = await startGatewayOnly(upstreamAddress, ["--workers=1", "--upstream_connections=3"]);
  try {
    const opened = new Set();
    const track = (session) => opened.add(session);
    upstream.on("session", track);
    const streamsOn = new Map();
    const countStream = (stream) => {
      const session = stream.session;
      streamsOn.set(session, (streamsOn.get(session) ?? 0) + 1);
    };
    upstream.on("stream", countStream);
    const call = () => callOnNewConnection(gateway.gateway);
    for (let i = 0; i < 6; i++) assert.equal(await call(), 404);
    assert.equal(opened.size, 3, "three sessions");
    assert.deepEqual([...streamsOn.values()], [2, 2, 2], "calls in turn");
    // The upstream drops every session: the next calls open new ones.
    for (const session of opened) session.destroy();
    await waitFor("sessions closed", () => [...opened].every((s) => s.destroyed));
    opened.clear();
    const after = [];
    for (let i = 0; i < 6; i++) after.push(await call());
    assert.ok(after.slice(3).every((status) => status === 404), `calls after the loss: ${after}`);
    assert.equal(opened.size, 3, "three new sessions");
    upstream.off("session", track);
    upstream.off("stream", countStream);
  } finally {
    await gateway.stop();
  }
});
