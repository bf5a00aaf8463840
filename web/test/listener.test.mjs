// The gateway's one-port listener (src/listener.ts, bundled here with esbuild):
// HTTP/1.1 and cleartext HTTP/2 on the same port, and Nagle's algorithm off
// (TCP_NODELAY) on every socket it accepts. With Nagle on, an HTTP/2 answer
// (HEADERS, then DATA and trailers in a later write) waited for the caller's
// delayed ACK: ~40-45 ms per call. Node keeps no readable record of the
// option, so the test records every socket setNoDelay(true) is called on.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

const noDelaySockets = new WeakSet();
const setNoDelay = net.Socket.prototype.setNoDelay;
net.Socket.prototype.setNoDelay = function (enable = true) {
  if (enable) noDelaySockets.add(this);
  return setNoDelay.call(this, enable);
};

// src/listener.ts bundled and loaded as a module (both listeners below use it).
async function loadListener() {
  const bundle = await build({
    entryPoints: [path.join(webDir, "src/listener.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    external: ["@connectrpc/*"],
  });
  return import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString("base64")}`);
}

let dual;
let port;
const accepted = [];

before(async () => {
  const { createDualProtocolServer } = await loadListener();
  // An answer in three writes, as a gRPC answer over HTTP/2 is.
  dual = createDualProtocolServer((req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("part one; ");
    setImmediate(() => res.end(`${req.httpVersion}`));
  });
  dual.server.on("connection", (socket) => accepted.push(socket));
  await new Promise((resolve) => dual.server.listen(0, "127.0.0.1", resolve));
  port = dual.server.address().port;
});

after(() => dual?.close());

function http1Get() {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent: false }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve(body));
      })
      .on("error", reject);
  });
}

function http2Get() {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", reject);
    const stream = session.request({ ":path": "/" });
    let body = "";
    stream.on("data", (d) => (body += d));
    stream.on("end", () => {
      session.close();
      resolve(body);
    });
    stream.on("error", reject);
    stream.end();
  });
}

test("HTTP/1.1 and HTTP/2 share the port", async () => {
  assert.equal(await http1Get(), "part one; 1.1");
  assert.equal(await http2Get(), "part one; 2.0");
});

test("every accepted socket has Nagle's algorithm off, HTTP/1.1 and HTTP/2 alike", async () => {
  accepted.length = 0;
  await http1Get();
  await http2Get();
  await http2Get();
  assert.equal(accepted.length, 3);
  for (const [i, socket] of accepted.entries()) assert.ok(noDelaySockets.has(socket), `accepted socket ${i}: TCP_NODELAY`);
});

test("an HTTP/2 preface sent one byte at a time is still HTTP/2", async () => {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.setNoDelay(true);
  const answer = new Promise((resolve) => socket.once("data", resolve));
  const preface = Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])]);
  for (const byte of preface.subarray(0, 4)) {
    socket.write(Buffer.from([byte]));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  socket.write(preface.subarray(4));
  const first = await answer;
  socket.destroy();
  assert.equal(first[3], 4, "the server's first frame is SETTINGS (an HTTP/1.1 server would answer 400)");
});

// ---- HTTP/1.1 read without Node's server (src/http1-lean.ts) ----
// A second listener with a lean path: "/lean" is answered by it (the body
// echoed), "/slow" never answers, "/giveback" is handed back after its body was
// read, anything else is not taken. Node's handler answers what it gets with
// "node:<method> <url> <body>".
let leanDual;
let leanPort;
const slowClosed = [];

before(async () => {
  const { createDualProtocolServer } = await loadListener();
  const serve = (req, res) => {
    if (!["/lean", "/slow", "/giveback"].includes(req.url)) return false;
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      if (req.url === "/slow") return res.on("close", () => slowClosed.push(body));
      if (req.url === "/giveback") return req.lean.replay();
      setImmediate(() => {
        res.writeHead(200, { "content-type": "text/plain", "x-answered-by": "lean" });
        res.end(Buffer.from(`lean:${body}`));
      });
    });
    return true;
  };
  leanDual = createDualProtocolServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const answer = `node:${req.method} ${req.url} ${body}`;
      res.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(answer) });
      res.end(answer);
    });
  }, { serve, maxRequestBytes: 1024 });
  await new Promise((resolve) => leanDual.server.listen(0, "127.0.0.1", resolve));
  leanPort = leanDual.server.address().port;
});

after(() => leanDual?.close());

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Writes `parts` (strings; a number waits that many ms) on one connection and
// collects what comes back until `done(text)` holds or the server closes.
async function exchange(parts, done, { close = false } = {}) {
  const socket = net.connect(leanPort, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let text = "";
  const finished = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no complete answer; got ${JSON.stringify(text)}`)), 5_000);
    const check = () => {
      if (done(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    };
    socket.on("data", (d) => {
      text += d.toString("latin1");
      check();
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on("error", () => undefined);
  });
  for (const part of parts) {
    if (typeof part === "number") await sleep(part);
    else socket.write(part);
  }
  if (close) socket.destroy();
  const result = await finished;
  socket.destroy();
  return result;
}

const post = (url, body, extra = "") =>
  `POST ${url} HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const bodies = (text) => [...text.matchAll(/\r\n\r\n((?:lean|node):[^H]*)/g)].map((m) => m[1]);

test("lean HTTP/1.1: keep-alive requests answered in one write each, with Node's headers", async () => {
  const text = await exchange([post("/lean", "one"), 10, post("/lean", "two")], (t) => t.includes("lean:two"));
  assert.deepEqual(bodies(text), ["lean:one", "lean:two"]);
  assert.match(text, /^HTTP\/1\.1 200 OK\r\ncontent-type: text\/plain\r\nx-answered-by: lean\r\ncontent-length: 8\r\nDate: .* GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=65\r\n\r\nlean:one/);
});

test("lean HTTP/1.1: pipelined requests answered in order, a later one Node's", async () => {
  const all = post("/lean", "a") + post("/lean", "b") + post("/other", "c") + post("/lean", "d");
  const text = await exchange([all], (t) => t.includes("/lean d"));
  assert.deepEqual(bodies(text), ["lean:a", "lean:b", "node:POST /other c", "node:POST /lean d"]);
});

test("lean HTTP/1.1: headers and a body split across TCP segments", async () => {
  const request = post("/lean", "split body");
  const text = await exchange(
    [request.slice(0, 7), 20, request.slice(7, 40), 20, request.slice(40, -4), 20, request.slice(-4)],
    (t) => t.includes("lean:split body"),
  );
  assert.deepEqual(bodies(text), ["lean:split body"]);
  // A body near the limit in many segments, then a request right behind it.
  const long = "0123456789".repeat(100);
  const whole = post("/lean", long) + post("/lean", "next");
  const parts = [];
  for (let at = 0; at < whole.length; at += 50) parts.push(whole.slice(at, at + 50), 2);
  const many = await exchange(parts, (t) => t.includes("lean:next"));
  assert.deepEqual(bodies(many), [`lean:${long}`, "lean:next"]);
});

test("lean HTTP/1.1: chunked bodies, Expect: 100-continue and other methods go to Node's server", async () => {
  const chunked = "POST /lean HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
  assert.deepEqual(bodies(await exchange([chunked], (t) => t.includes("hello"))), ["node:POST /lean hello"]);
  const expect = await exchange([post("/lean", "go", "expect: 100-continue\r\n")], (t) => t.includes("node:"));
  assert.match(expect, /^HTTP\/1\.1 100 Continue\r\n/);
  assert.deepEqual(bodies(expect), ["node:POST /lean go"]);
  const get = await exchange(["GET /lean HTTP/1.1\r\nhost: x\r\n\r\n"], (t) => t.includes("node:"));
  assert.deepEqual(bodies(get), ["node:GET /lean "]);
  const given = await exchange([post("/giveback", "again")], (t) => t.includes("node:"));
  assert.deepEqual(bodies(given), ["node:POST /giveback again"]);
  const big = await exchange([post("/lean", "x".repeat(2000))], (t) => t.includes("node:"));
  assert.deepEqual(bodies(big), [`node:POST /lean ${"x".repeat(2000)}`]);
});

test("lean HTTP/1.1: bad input is Node's to refuse, and the server goes on", async () => {
  const huge = await exchange([`POST /lean HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(20_000)}\r\ncontent-length: 1\r\n\r\nz`], (t) => t.includes("\r\n\r\n"));
  assert.match(huge, /^HTTP\/1\.1 431 /);
  const badLength = await exchange(["POST /lean HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\n\r\n"], (t) => t.includes("\r\n\r\n"));
  assert.match(badLength, /^HTTP\/1\.1 400 /);
  const twice = await exchange([post("/lean", "dup", "content-length: 3\r\n")], (t) => t.includes("\r\n\r\n"));
  assert.match(twice, /^HTTP\/1\.1 (400|200) /); // Node decides about a repeated Content-Length
  const garbage = await exchange(["HELLO THERE\r\n\r\n"], (t) => t.includes("\r\n\r\n"));
  assert.match(garbage, /^HTTP\/1\.1 400 /);
  assert.deepEqual(bodies(await exchange([post("/lean", "still")], (t) => t.includes("lean:still"))), ["lean:still"]);
});

test("lean HTTP/1.1: a connection closed mid-body or during a call ends cleanly", async () => {
  const request = post("/lean", "0123456789");
  assert.equal(await exchange([request.slice(0, -5)], () => false, { close: true }), "");
  slowClosed.length = 0;
  assert.equal(await exchange([post("/slow", "waiting"), 50], () => false, { close: true }), "");
  for (let i = 0; i < 50 && slowClosed.length === 0; i++) await sleep(10);
  assert.deepEqual(slowClosed, ["waiting"], "the call in flight learns that its caller left");
  assert.deepEqual(bodies(await exchange([post("/lean", "after")], (t) => t.includes("lean:after"))), ["lean:after"]);
});

test("lean HTTP/1.1: a request not complete in time gets 408, an idle connection is closed", async () => {
  const bundle = await build({
    entryPoints: [path.join(webDir, "src/http1-lean.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
  });
  const { serveLeanHttp1 } = await import(
    `data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString("base64")}`
  );
  const server = net.createServer((socket) =>
    serveLeanHttp1(socket, {
      serve: (req, res) => {
        req.on("end", () => res.writeHead(200, {}).end("ok"));
        return true;
      },
      maxRequestBytes: 1000,
      keepAliveMs: 300,
      requestTimeoutMs: 100,
      handOff: (socket) => socket.destroy(),
      inFlight: () => undefined,
      draining: () => false,
    }),
  );
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const run = async (parts) => {
    const socket = net.connect(server.address().port, "127.0.0.1");
    let text = "";
    socket.on("data", (d) => (text += d));
    const closed = new Promise((resolve) => socket.on("close", resolve));
    for (const part of parts) {
      if (typeof part === "number") await sleep(part);
      else socket.write(part);
    }
    await closed;
    return text;
  };
  try {
    assert.match(await run(["POST /x HTTP/1.1\r\ncontent-length: 5\r\n\r\nab", 200]), /^HTTP\/1\.1 408 Request Timeout\r\n/);
    const idle = await run(["POST /x HTTP/1.1\r\ncontent-length: 2\r\n\r\nab"]);
    assert.match(idle, /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nok$/);
  } finally {
    server.close();
  }
});
