// The gateway's Prometheus metrics (prom-client), served on /metrics.
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

const codeNames: Record<number, string> = { 0: "OK" };
for (const [name, value] of Object.entries(Code)) {
  if (typeof value === "number") codeNames[value] = name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

export function recordCall(method: DescMethod, protocol: string, code: Code | 0, seconds: number): void {
  calls.inc({ method: method.name, protocol: protocol.replace("-", "_"), code: codeNames[code] ?? String(code) });
  latency.observe({ method: method.name }, seconds);
}
