// The gateway's HTTP/2 connections to stud_server, grown with demand.
//
// stud_server lets each connection carry at most SETTINGS_MAX_CONCURRENT_STREAMS
// calls at once (its --max_concurrent_streams, 100 by default); a stream past
// that limit is held by the HTTP/2 client until another one ends. WatchHand
// streams stay open for a whole hand, so a fixed handful of connections would
// stall every watch past a few hundred per process, and unary calls behind
// them. Hence:
//
// * Every session's open streams are counted, and its limit is read from the
//   peer's SETTINGS (remoteSettings.maxConcurrentStreams; a new session takes
//   calls only once those have arrived, one round trip).
// * A server stream (WatchHand) takes a slot of the first session with room,
//   but never the last RESERVE of a session's slots (a tenth, at least one):
//   those are for unary calls only, so a unary call never waits behind
//   watches. A unary call goes to the least loaded session with room (ties in
//   turn, so the base sessions share the load).
// * When no session has room, another is opened, up to maxConnections
//   (--max_upstream_connections). Past that, a stream fails at once with
//   RESOURCE_EXHAUSTED (the caller reopens with backoff, as after the
//   service's own WATCHERS_EXHAUSTED) and a unary call is sent on the least
//   loaded session, where it waits only for unary calls (the reserved slots)
//   to end.
// * The first `connections` sessions (--upstream_connections) are the base:
//   opened on the first call and reopened once lost. Sessions beyond them are
//   closed after idleCloseMs without a stream.
// * Every address of stud_server gets a base session (src/targets.ts: the
//   upstream names resolved to all their addresses, e.g. every ready pod of a
//   headless Service, again every 5 s), so unary calls spread over every
//   replica; a session to an address no longer listed is closed (GOAWAY: its
//   calls finish) and extra sessions go to the addresses in turn.
// * A call that carries the hand hint (HAND_HINT: the hand's id, which a
//   client sends with every call of a hand after NewHand) goes to the hand's
//   home address when that address has a session with room (for a stream, room
//   outside the reserved slots): each stud_server then finds the hands it
//   answered still decoded (its --hand_cache) instead of opening their tokens,
//   for a hand's actions and for the updates its WatchHand streams build from
//   them. Homes are chosen by rendezvous hashing over the addresses, so when a
//   pod comes or goes only the hands of that pod move. Without the hint, or
//   when the home has no session with room, the call is placed as above.
// * An address whose connection ends before it is set up (refused, reset, a
//   TLS failure) is not tried again for a while: 1 s, doubling to 30 s while
//   it keeps failing, forgotten once a connection succeeds. Meanwhile calls go
//   to the other addresses. When every address is backing off, calls try them
//   all anyway (and fail UNAVAILABLE at once if they still refuse), so a lone
//   stud_server that restarts is used again at the first call after it.
// Node sets TCP_NODELAY on an HTTP/2 session's socket itself (strace:
// setsockopt TCP_NODELAY on every upstream socket).
import http2 from "node:http2";
import net from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { logLine } from "./logging.js";
import { parseUpstream, UpstreamTargets, type Lookup } from "./targets.js";

// The routing hint a client may send with the calls of a hand (its
// PublicView.hand_id). Only a hint: stud_server never reads it, and a wrong or
// forged one costs a decoded-hand miss, never a wrong answer.
export const HAND_HINT = "x-stud-hand-id";

// The address of `targets` that `hint`'s calls go to (rendezvous hashing: the
// highest hash of hint and address); undefined for an empty list.
export function homeOf(hint: string, targets: readonly string[]): string | undefined {
  let home: string | undefined;
  let best = -1;
  for (const target of targets) {
    const h = mix(`${hint}\u0000${target}`);
    if (h > best) {
      best = h;
      home = target;
    }
  }
  return home;
}

// FNV-1a over the UTF-16 code units, then murmur3's finalizer so that inputs
// differing only in their last characters (the address) spread evenly.
function mix(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// Backoff of an address whose connections fail: first, and at most.
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

export interface PoolOptions {
  // Sessions kept open (default 2).
  connections?: number;
  // Sessions at most (default 64).
  maxConnections?: number;
  // A session beyond the base is closed once it has had no stream this long (default 30 s).
  idleCloseMs?: number;
  // How host names are resolved (tests); default: the system resolver, all addresses.
  lookup?: Lookup;
  // TLS to stud_server (--upstream_tls_*); default: cleartext HTTP/2 (h2c).
  tls?: UpstreamTls;
}

// stud_server's certificate must chain to `ca` and name the host given in
// --upstream (or `servername`, for an address given without a name: also the
// SNI sent); `cert` and `key`, when given, are the gateway's client
// certificate for a stud_server that requires one (--tls_client_ca).
export interface UpstreamTls {
  ca: Buffer;
  servername?: string;
  cert?: Buffer;
  key?: Buffer;
}

// Options of a TLS connection to `target` (an address of `name`).
export function tlsConnectOptions(tls: UpstreamTls, name: string): http2.SecureClientSessionOptions {
  const servername = tls.servername ?? (net.isIP(name) ? undefined : name);
  return { ca: tls.ca, cert: tls.cert, key: tls.key, servername };
}

interface Entry {
  session: http2.ClientHttp2Session;
  // The address it connects to (host:port).
  target: string;
  // Streams opened on this session and not yet closed.
  active: number;
  // The TLS error code that ended it before it was set up (a certificate the
  // CA does not vouch for, another name): names no address.
  failure?: string;
  // Resolved once the peer's SETTINGS arrived or the session ended.
  ready: Promise<void>;
  settled: boolean;
  idleTimer?: NodeJS.Timeout;
}

// The peer's limit for one session; 2^31 when it sets none worth counting.
function limitOf(entry: Entry): number {
  return Math.min(entry.session.remoteSettings.maxConcurrentStreams ?? 100, 2 ** 31);
}

// Slots of a session that server streams may not take.
export function reservedSlots(limit: number): number {
  return limit < 2 ? 0 : Math.max(1, Math.floor(limit / 10));
}

// Whether one more stream fits on `entry`: a unary call up to the peer's
// limit, a server stream outside the reserved slots.
function hasRoom(entry: Entry, streaming: boolean): boolean {
  const limit = limitOf(entry);
  return entry.active < (streaming ? limit - reservedSlots(limit) : limit);
}

export class SessionPool {
  private readonly base: (Entry | undefined)[];  // resized in place by assign()
  private readonly extra: Entry[] = [];
  private readonly maxConnections: number;
  private readonly idleCloseMs: number;
  private next = 0;
  // The base sessions' count at least (--upstream_connections), and the
  // address of each base slot.
  private readonly minBase: number;
  private slotTarget: string[] = [];
  private readonly targets: UpstreamTargets;
  private readonly resolved: Promise<void>;
  private readonly tls?: UpstreamTls;
  // Addresses whose last connection failed before it was set up.
  private readonly backoff = new Map<string, { failures: number; until: number }>();

  // address: one host:port or several, comma-separated (src/targets.ts).
  constructor(address: string, options: PoolOptions | number = {}) {
    const o = typeof options === "number" ? { connections: options } : options;
    this.minBase = Math.max(1, o.connections ?? 2);
    this.base = [];
    this.targets = new UpstreamTargets(parseUpstream(address), (list) => this.assign(list), o.lookup);
    this.assign(this.targets.list());
    this.resolved = this.targets.start();
    this.maxConnections = Math.max(this.minBase, o.maxConnections ?? 64);
    this.idleCloseMs = o.idleCloseMs ?? 30_000;
    this.tls = o.tls;
  }

  // Settles once the upstream names were first resolved (or failed to be).
  ready(): Promise<void> {
    return this.resolved;
  }

  // The addresses sessions go to now.
  addresses(): string[] {
    return this.targets.list();
  }

  // The name given in --upstream for one of addresses() (src/targets.ts).
  nameOf(target: string): string {
    return this.targets.nameOf(target);
  }

  // Stops re-resolving.
  close(): void {
    this.targets.stop();
  }

  // Base slots over `targets`: each address at least once, minBase in all;
  // a session whose address is gone is closed gracefully.
  private assign(targets: string[]): void {
    const count = Math.max(this.minBase, targets.length);
    const spare = new Map<string, Entry[]>();
    for (const e of this.base) if (e) spare.set(e.target, [...(spare.get(e.target) ?? []), e]);
    const base: (Entry | undefined)[] = [];
    const slotTarget: string[] = [];
    for (let i = 0; i < count; i++) {
      const target = targets[i % targets.length];
      slotTarget.push(target);
      base.push(spare.get(target)?.shift());
    }
    for (const left of spare.values()) for (const e of left) e.session.close();
    for (const e of this.extra) if (!targets.includes(e.target)) e.session.close();
    this.base.splice(0, this.base.length, ...base);  // in place: tryUnary reads this.base
    this.slotTarget = slotTarget;
  }

  // Sessions open now and streams on them (for /metrics and tests).
  stats(): { sessions: number; streams: number } {
    const all = this.entries();
    return { sessions: all.length, streams: all.reduce((n, e) => n + e.active, 0) };
  }

  // Opens one HTTP/2 stream for a call (unary, or a server stream) on a
  // session with room, opening a session when needed. Rejects with
  // UNAVAILABLE when stud_server cannot be reached and RESOURCE_EXHAUSTED when
  // a server stream finds every allowed session full.
  async request(headers: http2.OutgoingHttpHeaders, streaming: boolean): Promise<http2.ClientHttp2Stream> {
    for (;;) {
      this.openMissingBase();
      const entry = this.home(headers, streaming) || this.pick(streaming);
      if (entry) return this.start(entry, headers);
      const pending = this.entries().filter((e) => !e.settled);
      if (pending.length > 0) {
        await Promise.all(pending.map((e) => e.ready));
        // A session that ended before its SETTINGS: stud_server is unreachable.
        if (pending.every((e) => e.session.closed || e.session.destroyed)) {
          const why = [...new Set(pending.map((e) => e.failure).filter(Boolean))].join(", ");
          throw new ConnectError(
            `stud_server unreachable: the connection closed before it was set up${why ? ` (${why})` : ""}`,
            Code.Unavailable,
          );
        }
        continue;
      }
      if (this.entries().length < this.maxConnections) {
        this.extra.push(this.open(-1));
        continue;
      }
      if (streaming) {
        const limit = Math.max(...this.entries().map(limitOf));
        throw new ConnectError(
          `the gateway's ${this.maxConnections} connections to stud_server carry as many streams as it allows ` +
            `(${limit} each, ${reservedSlots(limit)} kept for unary calls); retry later or add gateway processes`,
          Code.ResourceExhausted,
        );
      }
      // Every session full: the least loaded holds this call until a slot frees.
      return this.start(this.leastLoaded(this.entries())!, headers);
    }
  }

  // A unary call's stream at once, on the least loaded session with room,
  // when every base session is up (the common case: no promise, no array per
  // call); undefined when a base session is missing or every one is full, and
  // request() then opens, waits or queues as above.
  tryUnary(headers: http2.OutgoingHttpHeaders): http2.ClientHttp2Stream | undefined {
    const home = this.home(headers, false);
    if (home) return this.start(home, headers);
    const base = this.base;
    let best: Entry | undefined;
    const start = this.next++ % base.length;
    for (let k = 0; k < base.length; k++) {
      const slot = (start + k) % base.length;
      const e = base[slot];
      if (!e || e.session.closed || e.session.destroyed) {
        if (this.backingOff(this.slotTarget[slot])) continue;
        return undefined;
      }
      if (e.settled && hasRoom(e, false) && (!best || e.active < best.active)) best = e;
    }
    for (const e of this.extra) {
      if (this.usable(e) && hasRoom(e, false) && (!best || e.active < best.active)) best = e;
    }
    return best ? this.start(best, headers) : undefined;
  }

  // For a call with the hand hint, the least loaded session with room to the
  // hand's home address; undefined without the hint, with one address, or
  // when the home has no such session (the call is then placed as any other).
  private home(headers: http2.OutgoingHttpHeaders, streaming: boolean): Entry | undefined {
    const hint = headers[HAND_HINT];
    // A hand's id is 32 hex digits: a longer value is no hand's, and is not hashed.
    if (typeof hint !== "string" || hint === "" || hint.length > 64) return undefined;
    const targets = this.targets.list();
    if (targets.length < 2) return undefined;
    const home = homeOf(hint, targets);
    let best: Entry | undefined;
    for (const list of [this.base, this.extra]) {
      for (const e of list) {
        if (e && e.target === home && this.usable(e) && hasRoom(e, streaming) && (!best || e.active < best.active)) best = e;
      }
    }
    return best;
  }

  private entries(): Entry[] {
    return [...(this.base.filter(Boolean) as Entry[]), ...this.extra];
  }

  private usable(entry: Entry): boolean {
    return entry.settled && !entry.session.closed && !entry.session.destroyed;
  }

  private pick(streaming: boolean): Entry | undefined {
    const usable = this.entries().filter((e) => this.usable(e));
    if (streaming) {
      // Packed into the first sessions with room, so the extra ones empty out.
      return usable.find((e) => hasRoom(e, true));
    }
    return this.leastLoaded(usable.filter((e) => hasRoom(e, false)));
  }

  // Fewest streams; ties in turn.
  private leastLoaded(entries: Entry[]): Entry | undefined {
    if (entries.length === 0) return undefined;
    const start = this.next++ % entries.length;
    let best: Entry | undefined;
    for (let k = 0; k < entries.length; k++) {
      const e = entries[(start + k) % entries.length];
      if (!best || e.active < best.active) best = e;
    }
    return best;
  }

  private openMissingBase(): void {
    const respect = this.slotTarget.some((t) => !this.backingOff(t));
    for (let i = 0; i < this.base.length; i++) {
      const e = this.base[i];
      if ((!e || e.session.closed || e.session.destroyed) && !(respect && this.backingOff(this.slotTarget[i]))) {
        this.base[i] = this.open(i);
      }
    }
  }

  // Whether `target` failed lately and is not to be tried now.
  private backingOff(target: string): boolean {
    const b = this.backoff.get(target);
    return b !== undefined && b.until > Date.now();
  }

  private failed(target: string): void {
    const failures = (this.backoff.get(target)?.failures ?? 0) + 1;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(failures - 1, 16));
    this.backoff.set(target, { failures, until: Date.now() + delay });
    logLine("warn", "upstream_connect_failed", { target, failures, retry_in_ms: delay });
  }

  // index: the base slot, or -1 for an extra session.
  private open(index: number): Entry {
    const list = this.targets.list();
    const healthy = list.filter((t) => !this.backingOff(t));
    const from = healthy.length > 0 ? healthy : list;
    const target = index >= 0 ? this.slotTarget[index] : from[this.next++ % from.length];
    const session = this.tls
      ? http2.connect(`https://${target}`, tlsConnectOptions(this.tls, this.targets.nameOf(target)))
      : http2.connect(`http://${target}`);
    let settle!: () => void;
    const entry: Entry = { session, target, active: 0, settled: false, ready: new Promise((resolve) => (settle = resolve)) };
    const settled = () => {
      entry.settled = true;
      settle();
    };
    const forget = () => {
      if (!entry.settled) this.failed(target);
      settled();
      clearTimeout(entry.idleTimer);
      const slot = this.base.indexOf(entry);  // slots move when the addresses change
      if (slot >= 0) this.base[slot] = undefined;
      const at = this.extra.indexOf(entry);
      if (at >= 0) this.extra.splice(at, 1);
    };
    session.once("remoteSettings", () => {
      this.backoff.delete(target);
      settled();
    });
    // A lost connection fails the calls on it; the next call opens another.
    // A TLS failure's code is kept for the caller's message; a socket error's
    // (ECONNREFUSED, ENOTFOUND: they have a syscall) only says where the
    // deployment's network ends, which callers need not learn.
    session.on("error", (error: NodeJS.ErrnoException) => {
      if (!entry.settled && !error.syscall && error.code) entry.failure = error.code;
    });
    session.on("close", forget);
    // No new streams after GOAWAY; those open finish on it.
    session.on("goaway", forget);
    return entry;
  }

  private start(entry: Entry, headers: http2.OutgoingHttpHeaders): http2.ClientHttp2Stream {
    let stream: http2.ClientHttp2Stream;
    try {
      stream = entry.session.request(headers);
    } catch (error) {
      // The code only: a Node message may name the address.
      throw new ConnectError(`stud_server unreachable (${(error as NodeJS.ErrnoException).code ?? "error"})`, Code.Unavailable);
    }
    entry.active++;
    clearTimeout(entry.idleTimer);
    stream.once("close", () => {
      entry.active--;
      if (entry.active === 0 && this.extra.includes(entry)) {
        entry.idleTimer = setTimeout(() => {
          if (entry.active === 0) entry.session.close();
        }, this.idleCloseMs);
        entry.idleTimer.unref();
      }
    });
    return stream;
  }
}
