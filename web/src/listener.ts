// One TCP port for every kind of caller: HTTP/1.1 (curl, browsers: Connect
// JSON, gRPC-Web, the playground page) and cleartext HTTP/2 with prior
// knowledge (gRPC clients). Node's HTTP/2 server cannot fall back to HTTP/1.1
// without TLS, so the first bytes of each connection decide: every HTTP/2
// connection opens with the preface "PRI * HTTP/2.0", no HTTP/1 request does.
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";

import type { connectNodeAdapter } from "@connectrpc/connect-node";
import { serveLeanHttp1 } from "./http1-lean.js";

// The request handler connect-node builds (it also serves non-RPC paths
// through its fallback).
export type NodeHandlerFn = ReturnType<typeof connectNodeAdapter>;

export interface DualProtocolServer {
  server: net.Server;
  // Stops accepting, lets calls in flight finish, then closes every connection.
  close(): Promise<void>;
}

// HTTP/1.1 keep-alive: idle connections close after this (see below).
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
// HTTP/2: open streams per caller connection.
export const MAX_CONCURRENT_STREAMS = 1_000;

// The unary fast path for HTTP/1.1 connections read without Node's HTTP
// server (src/http1-lean.ts); requests it does not take go to `handler`.
export interface LeanHttp1 {
  serve: (req: object, res: object) => boolean;
  maxRequestBytes: number;
}

export function createDualProtocolServer(handler: NodeHandlerFn, lean?: LeanHttp1): DualProtocolServer {
  let draining = false;
  // HTTP/1.1 connections and their requests in flight: Node's own connection
  // tracking (closeIdleConnections) only covers servers that listen themselves.
  const http1Sockets = new Map<net.Socket, number>();
  const http1 = http.createServer();
  // Longer than the idle timeout of the load balancers in front (60 s for
  // most: AWS ALB, GCLB's backend keep-alive 600 s aside, nginx's upstream
  // keepalive_timeout 60 s), so the balancer, not the gateway, closes an idle
  // connection: a request it sends just as the gateway closed would fail.
  http1.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // A caller gets this long to send a request's headers (Node's default, kept
  // explicit) and its whole body (a stud.v1 request is at most a few KB;
  // a server stream's answer is not bounded by this).
  http1.headersTimeout = 60_000;
  http1.requestTimeout = 60_000;
  http1.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    http1Sockets.set(socket, (http1Sockets.get(socket) ?? 0) + 1);
    res.on("close", () => {
      const inFlight = (http1Sockets.get(socket) ?? 1) - 1;
      http1Sockets.set(socket, inFlight);
      if (draining && inFlight === 0) socket.end();
    });
    handler(req, res);
  });
  // Streams one caller connection may have open at once: a phone needs a few
  // (a WatchHand and its calls), a backend or an Ingress multiplexing many
  // callers over one h2c connection needs more, but no single connection may
  // take all of this process's upstream capacity (src/pool.ts, 5,760 watches).
  const h2c = http2.createServer({ settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS } });
  h2c.on("request", handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  h2c.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  // An HTTP/1.1 connection (and what was read of it) to Node's server.
  const toNode = (socket: net.Socket, unread: Buffer) => {
    if (unread.length > 0) socket.unshift(unread);
    http1.emit("connection", socket);
    socket.resume();
  };
  const leanLimits = {
    keepAliveMs: KEEP_ALIVE_TIMEOUT_MS,
    requestTimeoutMs: http1.requestTimeout,
    handOff: toNode,
    inFlight: (socket: net.Socket, delta: number) => http1Sockets.set(socket, (http1Sockets.get(socket) ?? 0) + delta),
    draining: () => draining,
  };
  // TCP_NODELAY on every accepted socket. An HTTP/2 answer leaves in two
  // writes (HEADERS, then DATA with the trailers); with Nagle's algorithm on,
  // the kernel holds the second until the caller ACKs the first, and callers
  // delay that ACK by 40 ms or more: every HTTP/2 call took ~45 ms. Node's
  // servers set the option only on sockets they accept themselves, not on
  // sockets handed to them with "connection" (an HTTP/2 session sets it on its
  // socket only if that is a net.Socket). A Connect stream over HTTP/1.1 (one
  // chunk per message) needs it as much.
  const server = net.createServer({ noDelay: true }, (socket) => {
    socket.setNoDelay(true);
    // The first bytes decide; a connection whose first segment is shorter
    // than "PRI" (one byte at a time is allowed) waits for more.
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      if (head.length < 3 && "PRI".startsWith(head.toString("latin1"))) return;
      socket.off("data", onData);
      socket.setTimeout(0);
      socket.off("timeout", onSilent);
      socket.pause();
      // The bytes go back into the socket's buffer: an HTTP/2 session reads
      // what is buffered before it takes over the socket's reads natively.
      socket.unshift(head);
      if (head.toString("latin1", 0, 3) === "PRI") {
        h2c.emit("connection", socket);
      } else {
        http1Sockets.set(socket, 0);
        socket.on("close", () => http1Sockets.delete(socket));
        if (lean) serveLeanHttp1(socket, { ...lean, ...leanLimits });
        else toNode(socket, Buffer.alloc(0));
      }
    };
    socket.on("data", onData);
    // A connection that never says what it is does not stay open.
    const onSilent = () => socket.destroy();
    socket.setTimeout(10_000, onSilent);
  });
  return {
    server,
    // Stops accepting; idle connections close now, busy ones after their
    // calls answer (HTTP/2: GOAWAY, then the streams finish); anything left
    // after 10 s is cut.
    close: () =>
      new Promise<void>((resolve) => {
        draining = true;
        server.close(() => resolve());
        for (const session of sessions) session.close();
        for (const [socket, inFlight] of http1Sockets) if (inFlight === 0) socket.end();
        setTimeout(() => {
          for (const socket of http1Sockets.keys()) socket.destroy();
          for (const session of sessions) session.destroy();
        }, 10_000).unref();
      }),
  };
}
