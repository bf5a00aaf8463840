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

let dual;
let port;
const accepted = [];

before(async () => {
  const bundle = await build({
    entryPoints: [path.join(webDir, "src/listener.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    external: ["@connectrpc/*"],
  });
  const { createDualProtocolServer } = await import(
    `data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString("base64")}`
  );
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
