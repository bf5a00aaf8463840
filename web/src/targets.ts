// Where the upstream pool (src/pool.ts) connects: --upstream's entries
// ("host:port", comma-separated), each host resolved to ALL its addresses and
// resolved again every few seconds.
//
// Why: stud_server is balanced per call, not per connection. A ClusterIP
// Service picks one pod per TCP connection, and the gateway multiplexes every
// call over a few long-lived HTTP/2 connections, so all of a gateway pod's
// calls would land on one or two stud pods, and pods the HPA adds would get
// nothing from it. A headless Service's name resolves to every ready pod's
// address; the pool keeps a connection to each and sends each call to the
// least loaded one. Pods that stop being ready (a drain) drop out of DNS; pods
// added appear within one re-resolution.
import dns from "node:dns";
import net from "node:net";

export interface UpstreamEntry {
  host: string;
  port: number;
}

// "a:1,b:2" or "[::1]:50051"; throws a readable Error on a bad entry.
export function parseUpstream(spec: string): UpstreamEntry[] {
  const entries = spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const colon = item.lastIndexOf(":");
      const host = item.slice(0, colon).replace(/^\[|\]$/g, "");
      const port = Number(item.slice(colon + 1));
      if (colon <= 0 || !host || !Number.isInteger(port) || port < 1 || port > 65535) {
        throw new Error(`--upstream: "${item}" is not host:port`);
      }
      return { host, port };
    });
  if (entries.length === 0) throw new Error("--upstream: no address given");
  return entries;
}

export function formatTarget(host: string, port: number): string {
  return net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

export type Lookup = (host: string) => Promise<string[]>;

const lookupAll: Lookup = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export class UpstreamTargets {
  private current: string[];
  // Each entry's addresses at the last resolution that gave any.
  private byEntry: string[][];
  private timer?: NodeJS.Timeout;

  // onChange runs with the new sorted list whenever it differs.
  constructor(
    private readonly entries: UpstreamEntry[],
    private readonly onChange: (targets: string[]) => void,
    private readonly lookup: Lookup = lookupAll,
  ) {
    // Until the first resolution: the names as given (http2.connect resolves one address).
    this.byEntry = entries.map((e) => [formatTarget(e.host, e.port)]);
    this.current = this.byEntry.flat();
  }

  list(): string[] {
    return this.current;
  }

  // The name given in --upstream for an address of the list (the host a TLS
  // certificate must name), or the address's host when it was given as such.
  nameOf(target: string): string {
    const i = this.byEntry.findIndex((addresses) => addresses.includes(target));
    return i >= 0 ? this.entries[i].host : target.slice(0, target.lastIndexOf(":")).replace(/^\[|\]$/g, "");
  }

  // Resolves now, then every intervalMs (an unref'd timer: it never keeps the
  // process alive).
  async start(intervalMs = 5_000): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  // A name that does not resolve keeps its previous addresses (a DNS outage
  // must not drop working connections).
  async refresh(): Promise<void> {
    this.byEntry = await Promise.all(
      this.entries.map(async (e, i) => {
        if (net.isIP(e.host)) return [formatTarget(e.host, e.port)];
        try {
          const addresses = await this.lookup(e.host);
          return addresses.length > 0 ? addresses.map((a) => formatTarget(a, e.port)) : this.byEntry[i];
        } catch {
          return this.byEntry[i];
        }
      }),
    );
    const sorted = [...new Set(this.byEntry.flat())].sort();
    if (sorted.join(",") === this.current.join(",")) return;
    this.current = sorted;
    this.onChange(sorted);
  }
}
