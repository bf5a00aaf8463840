// One TCP port for every kind of caller: HTTP/1.1 (curl, browsers: Connect
// JSON, gRPC-Web, the playground page) and cleartext HTTP/2 with prior
// knowledge (gRPC clients). Node's HTTP/2 server cannot fall back to HTTP/1.1
// without TLS, so the first bytes of each connection decide: every HTTP/2
// connection opens with the preface "PRI * HTTP/2.0", no HTTP/1 request does.
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { Duplex } from "node:stream";

import type { connectNodeAdapter } from "@connectrpc/connect-node";

// The request handler connect-node builds (it also serves non-RPC paths
// through its fallback).
export type NodeHandlerFn = ReturnType<typeof connectNodeAdapter>;

// The HTTP/2 session reads its socket natively and would miss bytes already
// read in JavaScript, so it gets a stream that replays the first chunk.
function replayingFirstChunk(socket: net.Socket, first: Buffer): Duplex {
  const duplex = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk, encoding, callback) {
      socket.write(chunk, encoding, callback);
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(error, callback) {
      socket.destroy(error ?? undefined);
      callback(error);
    },
  });
  duplex.push(first);
  socket.on("data", (data) => {
    if (!duplex.push(data)) socket.pause();
  });
  socket.on("end", () => duplex.push(null));
  socket.on("close", () => duplex.destroy());
  socket.on("error", (error) => duplex.destroy(error));
  return duplex;
}

export interface DualProtocolServer {
  server: net.Server;
  // Stops accepting, lets calls in flight finish, then closes every connection.
  close(): Promise<void>;
}

export function createDualProtocolServer(handler: NodeHandlerFn): DualProtocolServer {
  let draining = false;
  // HTTP/1.1 connections and their requests in flight: Node's own connection
  // tracking (closeIdleConnections) only covers servers that listen themselves.
  const http1Sockets = new Map<net.Socket, number>();
  const http1 = http.createServer();
  http1.keepAliveTimeout = 65_000;
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
  const h2c = http2.createServer({});
  h2c.on("request", handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  h2c.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  const server = net.createServer((socket) => {
    socket.once("data", (first: Buffer) => {
      socket.pause();
      if (first.toString("latin1", 0, 3) === "PRI") {
        h2c.emit("connection", replayingFirstChunk(socket, first));
      } else {
        http1Sockets.set(socket, 0);
        socket.on("close", () => http1Sockets.delete(socket));
        socket.unshift(first);
        http1.emit("connection", socket);
        socket.resume();
      }
    });
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
