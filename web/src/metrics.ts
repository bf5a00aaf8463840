// The gateway's Prometheus metrics (prom-client), served on /metrics. With
// --workers above 1 every worker process counts its own calls and /metrics,
// whichever worker answers it, shows the sum over all of them: the worker asks
// the primary, which gathers every worker's registry (prom-client's
// AggregatorRegistry).
import cluster from "node:cluster";
import type { DescMethod } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import client from "prom-client";

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: "stud_web_" });

const calls = new client.Counter({
  name: "stud_web_calls_total",
  help: "RPCs forwarded to stud_server, by method, caller protocol (connect, grpc_web, grpc) and gRPC status code",
  labelNames: ["method", "protocol", "code"],
  registers: [registry],
});

const latency = new client.Histogram({
  name: "stud_web_call_seconds",
  help: "Time from the gateway receiving a call to stud_server's answer, by method",
  labelNames: ["method"],
  buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
  registers: [registry],
});

// The connections to stud_server and the calls on them (src/pool.ts), read at
// each scrape; set by the gateway once its pool exists.
let poolStats: () => { sessions: number; streams: number } = () => ({ sessions: 0, streams: 0 });
export function observePool(stats: typeof poolStats): void {
  poolStats = stats;
}
new client.Gauge({
  name: "stud_web_upstream_connections",
  help: "HTTP/2 connections to stud_server open now (--upstream_connections up to --max_upstream_connections)",
  registers: [registry],
  collect() {
    this.set(poolStats().sessions);
  },
});
new client.Gauge({
  name: "stud_web_upstream_streams",
  help: "Calls open on the connections to stud_server now (a WatchHand stream counts for its whole life)",
  registers: [registry],
  collect() {
    this.set(poolStats().streams);
  },
});

const codeNames: Record<number, string> = { 0: "OK" };
for (const [name, value] of Object.entries(Code)) {
  if (typeof value === "number") codeNames[value] = name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

// A gRPC status code's name as /metrics and the access log spell it (UNAVAILABLE).
export function codeName(code: number): string {
  return codeNames[code] ?? String(code);
}

export function recordCall(method: DescMethod, protocol: string, code: Code | 0, seconds: number): void {
  calls.inc({ method: method.name, protocol: protocol.replace("-", "_"), code: codeNames[code] ?? String(code) });
  latency.observe({ method: method.name }, seconds);
}

// Messages between a worker and the primary (src/workers.ts) for /metrics.
export const METRICS_REQUEST = "stud_web:metrics-request";
export const METRICS_RESPONSE = "stud_web:metrics-response";

const pending = new Map<number, (text: string | undefined) => void>();
let nextRequest = 0;
if (cluster.isWorker) {
  // Answers the primary's prom-client requests for this worker's registry.
  client.AggregatorRegistry.setRegistries([registry]);
  new client.AggregatorRegistry();
  process.on("message", (message: { type?: string; id?: number; text?: string }) => {
    if (message?.type !== METRICS_RESPONSE || message.id === undefined) return;
    pending.get(message.id)?.(message.text);
    pending.delete(message.id);
  });
}

// The text of /metrics: this process's registry, or in a worker the sum over
// every worker (this worker's own registry if the primary does not answer
// within 2 s).
export async function metricsText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return registry.metrics();
  const id = nextRequest++;
  const text = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve(undefined);
    }, 2_000);
    pending.set(id, (answer) => {
      clearTimeout(timer);
      resolve(answer);
    });
    process.send!({ type: METRICS_REQUEST, id });
  });
  return text ?? registry.metrics();
}
