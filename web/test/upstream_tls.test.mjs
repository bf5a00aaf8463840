// TLS from the gateway to stud_server (--upstream_tls_ca and friends), against
// a real stud_server started with --tls_cert/--tls_key (and --tls_client_ca
// for mutual TLS), with certificates made here by openssl: a server CA, a
// client CA and a rogue CA, EC P-256, one day.
// - calls through the gateway succeed over TLS (Connect JSON on the unary fast
//   path, gRPC passed through, gRPC-Web) and /readyz says ready;
// - a gateway that trusts the wrong CA, or expects another name, answers 503 /
//   UNAVAILABLE naming the TLS failure and no internal address, and /readyz 503;
// - mutual TLS: with the client certificate calls succeed, without it 503;
// - bad flag combinations exit 2 with the flag's name.
// Every process listens on 127.0.0.1 port 0 and is stopped by its own PID.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http2 from "node:http2";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const gatewayMain = path.join(webDir, "dist", "gateway.mjs");
const children = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stud-web-tls-"));
const certs = {};

function openssl(...args) {
  execFileSync("openssl", args, { stdio: "pipe", timeout: 60_000 });
}

function makeCa(name) {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
  openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
    "-subj", `/CN=${name}`, "-keyout", key, "-out", cert);
  return { key, cert };
}

function makeLeaf(name, ca, ext) {
  const key = path.join(dir, `${name}.key`);
  const csr = path.join(dir, `${name}.csr`);
  const cert = path.join(dir, `${name}.pem`);
  const extfile = path.join(dir, `${name}.ext`);
  fs.writeFileSync(extfile, ext + "\n");
  openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
    "-subj", `/CN=${name}`, "-keyout", key, "-out", csr);
  openssl("x509", "-req", "-in", csr, "-CA", ca.cert, "-CAkey", ca.key, "-CAcreateserial", "-days", "1",
    "-extfile", extfile, "-out", cert);
  return { key, cert };
}

// Starts `command`; resolves with the first capture of `pattern` (stdout).
function start(command, args, pattern) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const stderr = [];
  readline.createInterface({ input: child.stderr }).on("line", (line) => stderr.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${path.basename(command)} did not start within 15 s`)), 15_000);
    child.once("exit", (code) => reject(new Error(`${path.basename(command)} exited with ${code}: ${stderr.join("\n")}`)));
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      const m = pattern.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve({ child, address: m[1], stderr });
      }
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

const keyFile = path.join(dir, "keys");
fs.writeFileSync(keyFile, `3:${"ab".repeat(32)}\n`);
const studServer = (args) =>
  start(process.env.STUD_SERVER, ["--listen", "127.0.0.1:0", "--key_file", keyFile, ...args], /^stud_server listening on (\S+)$/);
const gatewayFor = (upstream, args) =>
  start(process.execPath, [gatewayMain, "--listen=127.0.0.1:0", `--upstream=${upstream}`, "--workers=1", ...args], /^stud_web listening on (\S+)/);

const newHandJson = {
  variant: "VARIANT_STUD",
  stakes: { preset: "$15-$30" },
  seats: [{ seat: 1, stack: "20000" }, { seat: 2, stack: "20000" }],
};

let tlsServer;  // TLS, no client certificate asked
let mtlsServer; // TLS, a client certificate signed by the client CA required

before(async () => {
  if (!process.env.STUD_SERVER) throw new Error("set STUD_SERVER to the stud_server binary");
  certs.serverCa = makeCa("server-ca");
  certs.clientCa = makeCa("client-ca");
  certs.rogueCa = makeCa("rogue-ca");
  certs.server = makeLeaf("server", certs.serverCa, "subjectAltName=DNS:stud.test,IP:127.0.0.1\nextendedKeyUsage=serverAuth");
  certs.client = makeLeaf("client", certs.clientCa, "extendedKeyUsage=clientAuth");
  const tlsArgs = ["--tls_cert", certs.server.cert, "--tls_key", certs.server.key];
  tlsServer = await studServer(tlsArgs);
  mtlsServer = await studServer([...tlsArgs, "--tls_client_ca", certs.clientCa.cert]);
});

after(() => Promise.all(children.map(stop)));

async function newHand(base) {
  const response = await fetch(`${base}/stud.v1.StudService/NewHand`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(newHandJson),
  });
  return { status: response.status, body: await response.text() };
}

// A gRPC call through the gateway's h2c port (the passthrough): its grpc-status.
function grpcStatus(base) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(base);
    session.on("error", reject);
    const stream = session.request({
      ":method": "POST",
      ":path": "/stud.v1.StudService/NewHand",
      "content-type": "application/grpc",
      te: "trailers",
    });
    let status;
    let message = "";
    stream.on("response", (h) => (status ??= h["grpc-status"]));
    stream.on("trailers", (t) => {
      status = t["grpc-status"];
      message = decodeURIComponent(t["grpc-message"] ?? "");
    });
    stream.on("data", () => undefined);
    stream.on("close", () => {
      session.close();
      resolve({ status: Number(status), message });
    });
    stream.end(Buffer.alloc(5)); // an empty NewHandRequest: INVALID_ARGUMENT from stud_server
  });
}

const leaks = (text) => /127\.0\.0\.1|stud\.test/.test(text) || text.includes(tlsServer.address.split(":")[1]);

test("calls through the gateway reach a TLS stud_server", async () => {
  const gw = await gatewayFor(tlsServer.address, [`--upstream_tls_ca=${certs.serverCa.cert}`]);
  for (let i = 0; i < 3; i++) {
    const answer = await newHand(gw.address);
    assert.equal(answer.status, 200, answer.body);
    assert.match(answer.body, /"token"/);
  }
  // gRPC passed through: stud_server's own verdict on an empty request.
  const grpc = await grpcStatus(gw.address);
  assert.equal(grpc.status, 3, `gRPC status ${grpc.status}: ${grpc.message}`);
  const ready = await fetch(`${gw.address}/readyz`);
  assert.equal(ready.status, 200, await ready.text());
  await stop(gw.child);
});

test("--upstream_tls_servername: the name the certificate must carry", async () => {
  const good = await gatewayFor(tlsServer.address, [`--upstream_tls_ca=${certs.serverCa.cert}`, "--upstream_tls_servername=stud.test"]);
  assert.equal((await newHand(good.address)).status, 200);
  await stop(good.child);
  const wrong = await gatewayFor(tlsServer.address, [`--upstream_tls_ca=${certs.serverCa.cert}`, "--upstream_tls_servername=other.test"]);
  const answer = await newHand(wrong.address);
  assert.equal(answer.status, 503, answer.body);
  assert.match(answer.body, /"code":"unavailable"/);
  assert.match(answer.body, /ERR_TLS_CERT_ALTNAME_INVALID/);
  assert.ok(!leaks(answer.body), answer.body);
  await stop(wrong.child);
});

test("a gateway that trusts the wrong CA answers 503 UNAVAILABLE naming no address", async () => {
  const gw = await gatewayFor(tlsServer.address, [`--upstream_tls_ca=${certs.rogueCa.cert}`]);
  for (let round = 0; round < 2; round++) {
    const answer = await newHand(gw.address);
    assert.equal(answer.status, 503, answer.body);
    assert.match(answer.body, /"code":"unavailable"/);
    assert.match(answer.body, /unreachable.*(CERT|VERIFY|SIGNATURE|ISSUER)/, answer.body);
    assert.ok(!leaks(answer.body), answer.body);
    const grpc = await grpcStatus(gw.address);
    assert.equal(grpc.status, 14, grpc.message);
    assert.ok(!leaks(grpc.message), grpc.message);
  }
  const ready = await fetch(`${gw.address}/readyz`);
  const text = await ready.text();
  assert.equal(ready.status, 503, text);
  assert.ok(!leaks(text), text);
  await stop(gw.child);
});

test("a cleartext gateway cannot call a TLS stud_server", async () => {
  const gw = await gatewayFor(tlsServer.address, []);
  const answer = await newHand(gw.address);
  assert.equal(answer.status, 503, answer.body);
  assert.ok(!leaks(answer.body), answer.body);
  await stop(gw.child);
});

test("mutual TLS: the client certificate is presented; without it stud_server refuses", async () => {
  const withCert = await gatewayFor(mtlsServer.address, [
    `--upstream_tls_ca=${certs.serverCa.cert}`,
    `--upstream_tls_cert=${certs.client.cert}`,
    `--upstream_tls_key=${certs.client.key}`,
  ]);
  const answer = await newHand(withCert.address);
  assert.equal(answer.status, 200, answer.body);
  await stop(withCert.child);
  const without = await gatewayFor(mtlsServer.address, [`--upstream_tls_ca=${certs.serverCa.cert}`]);
  const refused = await newHand(without.address);
  assert.equal(refused.status, 503, refused.body);
  assert.match(refused.body, /"code":"unavailable"/);
  await stop(without.child);
});

test("bad --upstream_tls_* combinations exit 2 naming the flag", () => {
  const run = (...args) =>
    spawnSync(process.execPath, [gatewayMain, "--listen=127.0.0.1:0", "--upstream=127.0.0.1:1", ...args], { encoding: "utf8", timeout: 15_000 });
  const cases = [
    [["--upstream_tls_servername=x"], /need --upstream_tls_ca/],
    [[`--upstream_tls_ca=${certs.serverCa.cert}`, `--upstream_tls_cert=${certs.client.cert}`], /--upstream_tls_cert and --upstream_tls_key go together/],
    [[`--upstream_tls_ca=${path.join(dir, "missing.pem")}`], /--upstream_tls_ca: cannot read .*ENOENT/],
  ];
  for (const [args, message] of cases) {
    const proc = run(...args);
    assert.equal(proc.status, 2, proc.stderr);
    assert.match(proc.stderr, message);
  }
});
