// stud_web: the HTTP gateway in front of stud_server.
//   node dist/gateway.mjs [--listen=127.0.0.1:8080] [--upstream=127.0.0.1:50051]
//                        [--default_timeout_ms=10000] [--stream_timeout_ms=3600000]
//                        [--static_dir=DIR]
//                        [--workers=0] [--upstream_connections=2]
//                        [--max_upstream_connections=64] [--metrics_port=PORT]
//                        [--access_log=false] [--upstream_tls_ca=FILE]
//                        [--upstream_tls_servername=NAME]
//                        [--upstream_tls_cert=FILE --upstream_tls_key=FILE]
// Prints "stud_web listening on http://HOST:PORT" once it accepts calls
// (--listen=127.0.0.1:0 picks a free port; with several workers, once every
// worker listens), and "stud_web metrics on http://HOST:PORT/metrics" with
// --metrics_port. Everything else it says is JSON lines on stderr
// (src/logging.ts). SIGTERM/SIGINT: stop accepting, finish the calls in
// flight, exit 0.
import cluster from "node:cluster";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startGateway } from "./gateway.js";
import type { UpstreamTls } from "./pool.js";
import { logLine } from "./logging.js";
import { LISTENING, runPrimary } from "./workers.js";

const FLAGS: Record<string, { value: string; help: string }> = {
  listen: { value: "127.0.0.1:8080", help: "host:port to serve HTTP/1.1 and HTTP/2 (h2c) on; port 0 picks one" },
  upstream: {
    value: "127.0.0.1:50051",
    help:
      "stud_server's gRPC address host:port, or several, comma-separated; a host name is resolved to all its " +
      "addresses (a headless Service: every ready pod) every 5 s, and calls are spread over all of them",
  },
  default_timeout_ms: { value: "10000", help: "deadline for stud_server when the caller sets none" },
  stream_timeout_ms: {
    value: "3600000",
    help: "deadline of a server stream (WatchHand) when the caller sets none",
  },
  static_dir: { value: "", help: "directory of the playground page (default: the built one beside this file)" },
  workers: { value: "0", help: "processes serving the port (Node cluster); 0: one per core" },
  upstream_connections: {
    value: "2",
    help: "HTTP/2 connections to stud_server kept open per process (each reopened once lost)",
  },
  max_upstream_connections: {
    value: "64",
    help:
      "HTTP/2 connections to stud_server per process at most: more are opened while every one carries as many " +
      "streams as stud_server allows (--max_concurrent_streams), and closed after 30 s idle; past it a new " +
      "WatchHand fails RESOURCE_EXHAUSTED",
  },
  metrics_port: {
    value: "",
    help:
      "serve /metrics on this port (same host as --listen; 0 picks one) and not on the public port; " +
      "empty: /metrics on the public port",
  },
  access_log: { value: "false", help: "true: one JSON access line per request on stderr (no headers, query or body)" },
  upstream_tls_ca: {
    value: "",
    help:
      "PEM CA bundle: connect to stud_server over TLS; its certificate must chain to this CA and name the host " +
      "of --upstream (or --upstream_tls_servername); empty: cleartext h2c",
  },
  upstream_tls_servername: {
    value: "",
    help: "with --upstream_tls_ca: the name stud_server's certificate must carry (and the SNI), for --upstream given as addresses",
  },
  upstream_tls_cert: { value: "", help: "with --upstream_tls_ca: PEM client certificate for mutual TLS (stud_server --tls_client_ca)" },
  upstream_tls_key: { value: "", help: "with --upstream_tls_cert: its PEM private key" },
  cors_origins: {
    value: "",
    help: "comma-separated origins whose pages may call the gateway (https://app.example; * for any); empty: same origin only",
  },
};

function usage(): string {
  return (
    "usage: stud_web [--flag=value ...]\n" +
    Object.entries(FLAGS)
      .map(([name, flag]) => `  --${name} (default "${flag.value}"): ${flag.help}`)
      .join("\n")
  );
}

function parseFlags(argv: string[]): Record<string, string> {
  const values: Record<string, string> = Object.fromEntries(Object.entries(FLAGS).map(([k, f]) => [k, f.value]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") {
      console.log(usage());
      process.exit(0);
    }
    const match = /^--([a-z_]+)(?:=(.*))?$/.exec(arg);
    if (!match || !(match[1] in FLAGS)) {
      console.error(`stud_web: unknown argument "${arg}"\n${usage()}`);
      process.exit(2);
    }
    values[match[1]] = match[2] ?? argv[++i] ?? "";
  }
  return values;
}

const flags = parseFlags(process.argv.slice(2));
const colon = flags.listen.lastIndexOf(":");
const port = Number(flags.listen.slice(colon + 1));
const timeout = Number(flags.default_timeout_ms);
const streamTimeout = Number(flags.stream_timeout_ms);
if (colon < 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`stud_web: --listen must be host:port, got "${flags.listen}"`);
  process.exit(2);
}
if (!Number.isInteger(streamTimeout) || streamTimeout <= 0) {
  console.error(`stud_web: --stream_timeout_ms must be a positive integer, got "${flags.stream_timeout_ms}"`);
  process.exit(2);
}
if (!Number.isInteger(timeout) || timeout <= 0) {
  console.error(`stud_web: --default_timeout_ms must be a positive integer, got "${flags.default_timeout_ms}"`);
  process.exit(2);
}
const workers = flags.workers === "0" ? os.availableParallelism() : Number(flags.workers);
const connections = Number(flags.upstream_connections);
if (!Number.isInteger(workers) || workers < 0 || workers > 256) {
  console.error(`stud_web: --workers must be 0 (one per core) to 256, got "${flags.workers}"`);
  process.exit(2);
}
if (!Number.isInteger(connections) || connections < 1 || connections > 64) {
  console.error(`stud_web: --upstream_connections must be 1 to 64, got "${flags.upstream_connections}"`);
  process.exit(2);
}
const maxConnections = Number(flags.max_upstream_connections);
if (!Number.isInteger(maxConnections) || maxConnections < connections || maxConnections > 4096) {
  console.error(
    `stud_web: --max_upstream_connections must be --upstream_connections (${connections}) to 4096, got "${flags.max_upstream_connections}"`,
  );
  process.exit(2);
}
const metricsPort = flags.metrics_port === "" ? undefined : Number(flags.metrics_port);
if (metricsPort !== undefined && (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535)) {
  console.error(`stud_web: --metrics_port must be a port (0 picks one), got "${flags.metrics_port}"`);
  process.exit(2);
}
if (flags.access_log !== "true" && flags.access_log !== "false") {
  console.error(`stud_web: --access_log must be true or false, got "${flags.access_log}"`);
  process.exit(2);
}
const upstreamTls = readUpstreamTls();
const host = flags.listen.slice(0, colon);
const announce = (port: number) =>
  console.log(
    `stud_web listening on http://${host}:${port} (stud_server at ${flags.upstream}, ${workers} worker${workers === 1 ? "" : "s"})`,
  );
if (workers > 1 && cluster.isPrimary) {
  runPrimary(workers, announce);
} else {
  await serve();
}

async function serve(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const gateway = await startGateway({
    upstream: flags.upstream,
    host: flags.listen.slice(0, colon).replace(/^\[|\]$/g, ""),
    port,
    staticDir: flags.static_dir || path.join(here, "playground"),
    defaultTimeoutMs: timeout,
    streamTimeoutMs: streamTimeout,
    upstreamConnections: connections,
    maxUpstreamConnections: maxConnections,
    metricsPort,
    accessLog: flags.access_log === "true",
    upstreamTls,
    corsOrigins: flags.cors_origins
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
  }).catch((error: NodeJS.ErrnoException) => {
    logLine("error", "listen_failed", { listen: flags.listen, metrics_port: metricsPort, error: error.code ?? error.message });
    process.exit(1);
  });
  if (cluster.isWorker) process.send?.({ type: LISTENING, port: gateway.port });
  else announce(gateway.port);
  // Every worker serves the same metrics port; the first one says so.
  if (gateway.metricsPort !== undefined && (!cluster.isWorker || cluster.worker?.id === 1)) {
    console.log(`stud_web metrics on http://${host}:${gateway.metricsPort}/metrics`);
  }
  let draining = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // on, not once: a worker may get SIGINT twice (from the terminal and from
    // the primary); a second signal must not cut the drain short.
    process.on(signal, () => {
      if (draining) return;
      draining = true;
      logLine("info", "draining", { signal });
      void gateway.close().then(() => process.exit(0));
    });
  }
}

// The --upstream_tls_* files, read once at start (a pod restart picks up a
// rotated Secret); exits 2 with the flag's name on a bad combination or an
// unreadable file.
function readUpstreamTls(): UpstreamTls | undefined {
  const { upstream_tls_ca: ca, upstream_tls_servername: servername, upstream_tls_cert: cert, upstream_tls_key: key } = flags;
  const fail = (message: string): never => {
    console.error(`stud_web: ${message}`);
    process.exit(2);
  };
  if (!ca) {
    if (servername || cert || key) fail("--upstream_tls_servername, --upstream_tls_cert and --upstream_tls_key need --upstream_tls_ca");
    return undefined;
  }
  if (!cert !== !key) fail("--upstream_tls_cert and --upstream_tls_key go together");
  const read = (flag: string, file: string): Buffer => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      return fail(`--${flag}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
  };
  return {
    ca: read("upstream_tls_ca", ca),
    servername: servername || undefined,
    cert: cert ? read("upstream_tls_cert", cert) : undefined,
    key: key ? read("upstream_tls_key", key) : undefined,
  };
}
