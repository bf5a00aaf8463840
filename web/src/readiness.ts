// /readyz: is any stud_server address the gateway sends calls to serving?
//
// Asks grpc.health.v1.Health/Check of EVERY address of the pool (src/pool.ts:
// --upstream's names resolved to all their addresses) at once, each on a
// connection of its own through connect-node's client (TLS as the pool's), and
// is ready when at least one answers SERVING within the timeout: the pool
// sends calls to whichever address serves, so one replica down (or the first
// address given) must not take the gateway out of its Service, and all of them
// down must. Connections to addresses no longer listed are closed.
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { Health, HealthCheckResponse_ServingStatus } from "../gen/grpc/health/v1/health_pb.js";
import { tlsConnectOptions, type SessionPool, type UpstreamTls } from "./pool.js";

export type Readiness = "ready" | "not_serving" | "unreachable";

export class UpstreamHealth {
  private readonly clients = new Map<string, { manager: Http2SessionManager; client: Client<typeof Health> }>();

  constructor(
    private readonly pool: SessionPool,
    private readonly tls?: UpstreamTls,
  ) {}

  async check(timeoutMs = 1_000): Promise<Readiness> {
    const targets = this.pool.addresses();
    for (const [target, { manager }] of this.clients) {
      if (!targets.includes(target)) {
        manager.abort();
        this.clients.delete(target);
      }
    }
    const answers = await Promise.allSettled(
      targets.map((t) => this.clientFor(t).check({ service: "" }, { timeoutMs }).then((a) => a.status)),
    );
    if (answers.some((a) => a.status === "fulfilled" && a.value === HealthCheckResponse_ServingStatus.SERVING)) return "ready";
    return answers.some((a) => a.status === "fulfilled") ? "not_serving" : "unreachable";
  }

  close(): void {
    for (const { manager } of this.clients.values()) manager.abort();
    this.clients.clear();
  }

  private clientFor(target: string): Client<typeof Health> {
    let entry = this.clients.get(target);
    if (!entry) {
      const url = `${this.tls ? "https" : "http"}://${target}`;
      const manager = new Http2SessionManager(
        url,
        { pingIntervalMs: 10_000 },
        this.tls ? tlsConnectOptions(this.tls, this.pool.nameOf(target)) : undefined,
      );
      const client = createClient(Health, createGrpcTransport({ baseUrl: url, sessionManager: manager }));
      entry = { manager, client };
      this.clients.set(target, entry);
    }
    return entry.client;
  }
}
