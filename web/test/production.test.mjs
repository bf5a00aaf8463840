// The gateway as production runs it (k8s/components/web), against three real
// stud_server replicas:
// - calls from one gateway process, all over one caller connection, land on
//   every replica (the upstream pool keeps a session to each address of
//   --upstream and sends each call to the least loaded one; in Kubernetes
//   the addresses come from the headless Service's name, src/targets.ts);
// - --metrics_port: /metrics there, and no longer on the public port;
// - --access_log: one JSON line per request with method, path, status,
//   duration and bytes, never a header, query string or body; for an RPC its
//   gRPC status too, whichever protocol and path (fast path, gRPC passed
//   through, connect-node) answered it;
// - a 503 names no internal address or host name, whichever way stud_server
//   is unreachable;
// - /readyz asks every address: ready while one serves, even when the first
//   given is down;
// - an address that refuses connections is backed off (1 s doubling to 30 s):
//   calls go to the healthy one meanwhile, not each through a new attempt.
// Every process listens on 127.0.0.1 port 0 and is stopped by its own PID.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import http2 from "node:http2";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const children = [];

// Starts `command` and resolves with the first match of each pattern (stdout
// and stderr lines both); collects stderr lines in `lines`.
function start(command, args, patterns, lines = []) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const found = {};
    const timer = setTimeout(() => reject(new Error(`${path.basename(command)} did not start within 15 s`)), 15_000);
    child.once("exit", (code) => reject(new Error(`${path.basename(command)} exited with ${code}`)));
    const onLine = (line) => {
      for (const [name, re] of Object.entries(patterns)) {
        const m = re.exec(line);
        if (m && !(name in found)) found[name] = m[1];
      }
      if (Object.keys(found).length === Object.keys(patterns).length) {
        clearTimeout(timer);
        resolve({ child, ...found });
      }
    };
    readline.createInterface({ input: child.stdout }).on("line", onLine);
    readline.createInterface({ input: child.stderr }).on("line", (line) => {
      lines.push(line);
      onLine(line);
    });
  });
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

const SECRET_KEY = "k3y-that-must-never-be-logged";
const SECRET_TICKET = "t1cket-that-must-never-be-logged";
const newHandJson = {
  variant: "VARIANT_STUD",
  stakes: { preset: "$15-$30" },
  seats: [{ seat: 1, stack: "20000" }, { seat: 2, stack: "20000" }],
};
let replicas = [];
let gateway;
const gatewayLog = [];

before(async () => {
  const server = process.env.STUD_SERVER;
  if (!server) throw new Error("set STUD_SERVER to the stud_server binary");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stud-web-prod-"));
  const keyFile = path.join(dir, "keys");
  fs.writeFileSync(keyFile, `3:${"ab".repeat(32)}\n`);
  replicas = await Promise.all(
    [0, 1, 2].map(() =>
      start(server, ["--listen", "127.0.0.1:0", "--key_file", keyFile, "--metrics_listen", "127.0.0.1:0"], {
        address: /^stud_server listening on (\S+)$/,
        metrics: /"event":"metrics_listening".*"port":(\d+)/,
      }),
    ),
  );
  gateway = await start(
    process.execPath,
    [
      path.join(webDir, "dist", "gateway.mjs"),
      "--listen=127.0.0.1:0",
      `--upstream=${replicas.map((r) => r.address).join(",")}`,
      "--workers=1",
      "--metrics_port=0",
      "--access_log=true",
    ],
    { base: /^stud_web listening on (\S+)/, metrics: /^stud_web metrics on (\S+)/ },
    gatewayLog,
  );
});

after(() => Promise.all(children.map(stop)));

async function newHands(base, n) {
  for (let i = 0; i < n; i++) {
    const response = await fetch(`${base}/stud.v1.StudService/NewHand`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-stud-api-key": SECRET_KEY },
      body: JSON.stringify(newHandJson),
    });
    assert.equal(response.status, 200, await response.text());
    await response.arrayBuffer().catch(() => undefined);
  }
}

async function servedNewHands(replica) {
  const text = await (await fetch(`http://127.0.0.1:${replica.metrics}/metrics`)).text();
  return Number(/^stud_rpc_requests_total\{code="OK",method="NewHand"\} (\S+)$/m.exec(text)?.[1] ?? 0);
}

test("calls from one gateway land on every stud_server replica", async () => {
  await newHands(gateway.base, 30);
  const served = await Promise.all(replicas.map(servedNewHands));
  console.log(`NewHand calls per replica: ${served.join(", ")}`);
  assert.equal(served.reduce((a, b) => a + b, 0), 30, `calls per replica: ${served}`);
  for (const [i, n] of served.entries()) assert.ok(n >= 5, `replica ${i} served ${n} of 30 calls (${served})`);
});

test("--metrics_port serves /metrics; the public port does not", async () => {
  await newHands(gateway.base, 1);
  const metrics = await fetch(gateway.metrics);
  assert.equal(metrics.status, 200);
  assert.match(await metrics.text(), /stud_web_calls_total\{method="NewHand",protocol="connect",code="OK"\} [1-9]/);
  const publicMetrics = await fetch(`${gateway.base}/metrics`);
  assert.equal(publicMetrics.status, 404);
  await publicMetrics.arrayBuffer();
  const other = await fetch(gateway.metrics.replace(/\/metrics$/, "/stud.v1.StudService/NewHand"), { method: "POST" });
  assert.equal(other.status, 404, "the metrics port serves nothing else");
  await other.arrayBuffer();
});

test("access log: one JSON line per request, no keys, tickets or query strings", async () => {
  const probe = await fetch(`${gateway.base}/healthz?seat_ticket=${SECRET_TICKET}`);
  assert.equal(probe.status, 200);
  await probe.arrayBuffer();
  await newHands(gateway.base, 1);
  // The line is written once the answer is sent: wait for it (bounded).
  for (let i = 0; i < 100 && !gatewayLog.some((l) => l.includes('"/healthz"')); i++) await new Promise((r) => setTimeout(r, 20));
  const access = gatewayLog.map((l) => JSON.parse(l)).filter((l) => l.event === "access");
  const calls = access.filter((l) => l.path === "/stud.v1.StudService/NewHand");
  assert.ok(calls.length >= 31, `${calls.length} access lines for NewHand`);
  for (const line of calls) {
    assert.equal(line.method, "POST");
    assert.equal(line.status, 200);
    assert.equal(line.level, "info");
    assert.ok(typeof line.ts === "string" && typeof line.duration_ms === "number" && line.duration_ms >= 0);
    assert.ok(line.bytes > 0 && line.request_bytes > 0, JSON.stringify(line));
  }
  assert.ok(access.some((l) => l.path === "/healthz" && l.status === 200 && l.method === "GET"));
  for (const line of gatewayLog) {
    assert.ok(!line.includes(SECRET_KEY) && !line.includes(SECRET_TICKET), `a secret in the log: ${line}`);
  }
});

test("a 503 names no internal address", async () => {
  // A port nothing listens on, and a name that does not resolve.
  const closed = await new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
  for (const upstream of [`127.0.0.1:${closed}`, "stud-internal-name.invalid:50051"]) {
    const down = await start(
      process.execPath,
      [path.join(webDir, "dist", "gateway.mjs"), "--listen=127.0.0.1:0", `--upstream=${upstream}`, "--workers=1"],
      { base: /^stud_web listening on (\S+)/ },
    );
    const leaks = (text) => /127\.0\.0\.1|stud-internal-name|:50051|ECONNREFUSED|ENOTFOUND/.test(text) || text.includes(`:${closed}`);
    for (let round = 0; round < 2; round++) {
      const json = await fetch(`${down.base}/stud.v1.StudService/NewHand`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(newHandJson),
      });
      const body = await json.text();
      assert.equal(json.status, 503, body);
      assert.ok(!leaks(body), `${upstream}: ${body}`);
      const web = await fetch(`${down.base}/stud.v1.StudService/NewHand`, {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto" },
        body: new Uint8Array(5),
      });
      const message = decodeURIComponent(web.headers.get("grpc-message") ?? "") + (await web.text());
      assert.ok(!leaks(message), `${upstream}: ${message}`);
    }
    const ready = await fetch(`${down.base}/readyz`);
    const text = await ready.text();
    assert.equal(ready.status, 503);
    assert.ok(!leaks(text), text);
    await stop(down.child);
  }
});

// A port nothing listens on.
function closedPort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

test("an address that refuses connections is backed off; calls go to the healthy one", async () => {
  // One address refuses outright (a closed port); the other accepts and
  // closes every connection at once, counting them: each is a connection that
  // ends before it is set up, as a refusal does.
  let attempts = 0;
  const slammer = net.createServer((socket) => {
    attempts++;
    socket.destroy();
  });
  await new Promise((resolve) => slammer.listen(0, "127.0.0.1", resolve));
  const closed = await closedPort();
  const lines = [];
  const gw = await start(
    process.execPath,
    [
      path.join(webDir, "dist", "gateway.mjs"),
      "--listen=127.0.0.1:0",
      `--upstream=${replicas[0].address},127.0.0.1:${closed},127.0.0.1:${slammer.address().port}`,
      "--workers=1",
    ],
    { base: /^stud_web listening on (\S+)/ },
    lines,
  );
  const calls = 40;
  await newHands(gw.base, calls); // every one answered 200 (asserted there)
  slammer.close();
  await stop(gw.child);
  // Without the backoff every call found a base session missing and tried
  // again: about one attempt per call. With it, one attempt and then one per
  // backoff period (1, 2, 4, 8 s ...): a handful even on a slow machine.
  console.log(`${attempts} connection attempts to the failing address over ${calls} calls`);
  assert.ok(attempts >= 1 && attempts <= 6, `${attempts} connection attempts over ${calls} calls`);
  const failures = lines.map((l) => JSON.parse(l)).filter((l) => l.event === "upstream_connect_failed");
  assert.ok(failures.some((l) => l.target === `127.0.0.1:${closed}` && l.retry_in_ms === 1000), JSON.stringify(failures));
});

test("/readyz asks every address: ready while one serves", async () => {
  const closed = await closedPort();
  // The address that is down comes first: a check of the first one alone said 503.
  const gw = await start(
    process.execPath,
    [path.join(webDir, "dist", "gateway.mjs"), "--listen=127.0.0.1:0", `--upstream=127.0.0.1:${closed},${replicas[1].address}`, "--workers=1"],
    { base: /^stud_web listening on (\S+)/ },
  );
  for (let i = 0; i < 3; i++) {
    const ready = await fetch(`${gw.base}/readyz`);
    assert.equal(ready.status, 200, await ready.text());
  }
  await stop(gw.child);
});

test("access log: the gRPC status beside the HTTP status", async () => {
  const url = `${gateway.base}/stud.v1.StudService/NewHand`;
  const marker = gatewayLog.length;
  // Connect JSON on the fast path: OK, and an empty request refused by stud_server (HTTP 400).
  await newHands(gateway.base, 1);
  const refused = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  assert.equal(refused.status, 400);
  await refused.arrayBuffer();
  // Through connect-node (a gzip request is handed over to it).
  const gz = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
    body: zlib.gzipSync("{}"),
  });
  assert.equal(gz.status, 400, await gz.text());
  // gRPC-Web (HTTP 200, the status in the body's trailers).
  const web = await fetch(url, { method: "POST", headers: { "content-type": "application/grpc-web+proto" }, body: new Uint8Array(5) });
  assert.equal(web.status, 200);
  await web.arrayBuffer();
  // gRPC passed through over h2c (HTTP 200, the status in trailers).
  await new Promise((resolve, reject) => {
    const session = http2.connect(gateway.base);
    session.on("error", reject);
    const stream = session.request({ ":method": "POST", ":path": "/stud.v1.StudService/NewHand", "content-type": "application/grpc", te: "trailers" });
    stream.on("data", () => undefined);
    stream.on("close", () => session.close(resolve));
    stream.end(Buffer.alloc(5));
  });
  const want = 5;
  const lines = () =>
    gatewayLog
      .slice(marker)
      .map((l) => JSON.parse(l))
      .filter((l) => l.event === "access" && l.path === "/stud.v1.StudService/NewHand");
  for (let i = 0; i < 100 && lines().length < want; i++) await new Promise((r) => setTimeout(r, 20));
  const got = lines().map((l) => `${l.http} ${l.status} ${l.grpc_status} ${l.grpc_code}`);
  assert.equal(got.length, want, got.join("\n"));
  const counts = (entry) => got.filter((g) => g.endsWith(entry)).length;
  assert.equal(counts("200 0 OK"), 1, got.join("\n"));
  assert.equal(counts("400 3 INVALID_ARGUMENT"), 2, got.join("\n"));
  assert.equal(counts("200 3 INVALID_ARGUMENT"), 2, got.join("\n"));
});
