// The web gateway: stud.v1 over Connect (JSON or binary), gRPC-Web and gRPC on
// one port, forwarded to stud_server; plus the playground page (/), liveness
// (/healthz), readiness (/readyz: at least one stud_server address answers its
// gRPC health check, src/readiness.ts)
// and Prometheus metrics (/metrics: on the public port, or with metricsPort
// only on that port, which the public one then does not serve).
import http from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { DescMethod } from "@bufbuild/protobuf";
import type { Code } from "@connectrpc/connect";
import { connectHandler, MAX_JSON_BYTES } from "./adapter.js";
import { StudService } from "../gen/stud/v1/stud_pb.js";
import { corsPolicy } from "./cors.js";
import { studServiceForwarder } from "./forward.js";
import { createDualProtocolServer, type NodeHandlerFn } from "./listener.js";
import { grpcPassthrough } from "./passthrough.js";
import { unaryFastPath } from "./unary.js";
import { SessionPool } from "./upstream.js";
import type { UpstreamTls } from "./pool.js";
import { UpstreamHealth } from "./readiness.js";
import { metricsText, observePool, recordCall, registry } from "./metrics.js";
import { noteGrpcStatus, withAccessLog } from "./logging.js";

export interface GatewayOptions {
  // stud_server's gRPC address, host:port.
  upstream: string;
  host: string;
  port: number;
  // Directory of the built playground (index.html, app.js, style.css).
  staticDir: string;
  // Deadline for stud_server when the caller sets none: unary calls, and
  // server streams (WatchHand; default one hour, the stream's own idle
  // timeout in stud_server ends a quiet one sooner).
  defaultTimeoutMs: number;
  streamTimeoutMs?: number;
  // HTTP/2 connections to stud_server kept open (default 2), and at most
  // (default 64): the pool grows with open streams (src/pool.ts).
  upstreamConnections?: number;
  maxUpstreamConnections?: number;
  // Origins whose pages may call the gateway (CORS); empty: same origin only.
  corsOrigins: string[];
  // Serve /metrics on this port (of `host`; 0 picks one) instead of the
  // public one, so that only the scraper, not the Internet, can reach it.
  metricsPort?: number;
  // One JSON "access" line per request on stderr (src/logging.ts).
  accessLog?: boolean;
  // TLS to stud_server (src/pool.ts); default: cleartext h2c.
  upstreamTls?: UpstreamTls;
}

export interface Gateway {
  port: number;
  // The metrics port when metricsPort was given.
  metricsPort?: number;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
};

type Request = Parameters<NodeHandlerFn>[0];
type Response = Parameters<NodeHandlerFn>[1];

function send(res: Response, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  res.end(body);
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const upstream = new SessionPool(options.upstream, {
    connections: options.upstreamConnections ?? 2,
    maxConnections: options.maxUpstreamConnections ?? 64,
    tls: options.upstreamTls,
  });
  observePool(() => upstream.stats());
  // Every stud_server address known before the first call (at most 2 s: a
  // name that does not resolve yet is tried again every 5 s).
  await Promise.race([upstream.ready(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
  // Readiness asks every address the pool sends calls to (src/readiness.ts).
  const health = new UpstreamHealth(upstream, options.upstreamTls);

  // Every RPC's end: /metrics, and its status for the access log.
  const onCallEnd = (method: DescMethod, protocol: string, code: Code | 0, seconds: number, res?: object) => {
    recordCall(method, protocol, code, seconds);
    if (options.accessLog) noteGrpcStatus(code, res);
  };

  async function serveOther(req: Request, res: Response): Promise<void> {
    const url = new URL(req.url ?? "/", "http://gateway");
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 404, "text/plain", "not found: stud.v1 RPCs are POST /stud.v1.StudService/<Method>\n");
      return;
    }
    if (url.pathname === "/healthz") return send(res, 200, "text/plain", "ok\n");
    if (url.pathname === "/readyz") {
      // The probe's answer may be public: it names neither an upstream nor an error.
      const state = await health.check(1_000);
      const text = { ready: "ready\n", not_serving: "stud_server not serving\n", unreachable: "stud_server unreachable\n" }[state];
      return send(res, state === "ready" ? 200 : 503, "text/plain", text);
    }
    if (url.pathname === "/metrics" && options.metricsPort === undefined) {
      return send(res, 200, registry.contentType, await metricsText());
    }
    const name = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
    const type = CONTENT_TYPES[path.extname(name)];
    if (!type || name.includes("..") || name.includes("/")) return send(res, 404, "text/plain", "not found\n");
    try {
      send(res, 200, type, await readFile(path.join(options.staticDir, name)));
    } catch {
      send(res, 404, "text/plain", `not found (is the playground built? npm run build in web/)\n`);
    }
  }

  const handler = connectHandler(
    (router) =>
      router.service(
        StudService,
        studServiceForwarder({
          upstream,
          defaultTimeoutMs: options.defaultTimeoutMs,
          streamTimeoutMs: options.streamTimeoutMs ?? 3_600_000,
          hooks: { onCallEnd },
        }),
      ),
    (req, res) => void serveOther(req, res),
  );
  const passthrough = grpcPassthrough({
    upstream,
    defaultTimeoutMs: options.defaultTimeoutMs,
    streamTimeoutMs: options.streamTimeoutMs ?? 3_600_000,
    methods: new Map(StudService.methods.map((m) => [`/${StudService.typeName}/${m.name}`, m])),
    onCallEnd,
  });
  // Unary Connect and gRPC-Web calls (nearly all of them) on Node's objects
  // directly; the rest through connect-node (src/unary.ts says which).
  const unary = unaryFastPath({
    upstream,
    defaultTimeoutMs: options.defaultTimeoutMs,
    methods: StudService.methods,
    maxRequestBytes: MAX_JSON_BYTES,
    onCallEnd,
    fallback: handler,
  });
  const applyCors = corsPolicy(options.corsOrigins);
  const serve: NodeHandlerFn = (req, res) => {
    if (!applyCors(req, res) && !passthrough(req, res) && !unary(req, res)) handler(req, res);
  };
  // HTTP/1.1 unary calls without Node's HTTP server (src/http1-lean.ts); not
  // with the access log, which reads Node's request and response.
  const lean = options.accessLog ? undefined : { serve: unary as (req: object, res: object) => boolean, maxRequestBytes: MAX_JSON_BYTES };
  const dual = createDualProtocolServer(options.accessLog ? withAccessLog(serve) : serve, lean);
  await new Promise<void>((resolve, reject) => {
    dual.server.once("error", reject);
    dual.server.listen(options.port, options.host, () => resolve());
  });
  const metrics = options.metricsPort === undefined ? undefined : await serveMetrics(options.host, options.metricsPort);
  return {
    port: (dual.server.address() as AddressInfo).port,
    metricsPort: metrics ? (metrics.address() as AddressInfo).port : undefined,
    close: async () => {
      metrics?.close();
      await dual.close();
      upstream.close();
      health.close();
    },
  };
}

// /metrics alone, on its own port.
async function serveMetrics(host: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      return send(res, 404, "text/plain", "not found: this port serves GET /metrics only\n");
    }
    void metricsText().then((text) => send(res, 200, registry.contentType, text));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
