// HTTP/1.1 unary calls without Node's HTTP server: the simple keep-alive
// request the unary fast path (src/unary.ts) serves, read and answered on the
// socket directly. Node's server gives every request an IncomingMessage and a
// ServerResponse (a readable and a writable stream, their events and timers)
// and answers in two writes; here a request is one parse of the buffered
// bytes and its answer one write (docs/benchmarks.md, "Through the web
// gateway").
//
// Taken here, and only this: `POST <path> HTTP/1.1` whose headers are all
// well formed and each given once, with a Content-Length (at most
// maxRequestBytes) and without Transfer-Encoding, Expect, Upgrade, Origin
// (CORS) or a Connection header other than keep-alive, which the fast path
// takes (its method, content type, encoding and timeout). Anything else, from
// the first request on a connection or any later one, hands the connection
// to Node's HTTP server with every byte not yet answered, unchanged, and Node
// serves it and the rest of the connection as before (chunked bodies, 100-
// continue, 431 for headers over 16 KiB, 400 for malformed requests,
// pipelining, connect-node's hand-overs). So is a request the fast path gives
// up on after reading it (a JSON body it leaves to connect-node).
//
// Requests sent back to back (pipelining) are answered in order, one at a
// time: those behind a call in flight wait in the buffer (reading stops when
// that holds more than a request's limit); reading goes on during a call so
// that a caller who leaves is seen at once. The limits of
// src/listener.ts hold: 65 s idle between requests, 60 s for a whole request
// (then 408, as Node answers), and a connection closed mid-body or during a
// call cancels it without an answer.
import http from "node:http";
import type net from "node:net";

// Node's limit on a request's headers (--max-http-header-size).
const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_END = Buffer.from("\r\n\r\n");
const OWS = /^[ \t]+|[ \t]+$/g;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const REQUEST_LINE = /^POST \/[!-~]* HTTP\/1\.1\r\n$/;

export interface LeanHttp1Options {
  // The fast path: takes the request (and answers on `res`) or returns false.
  serve: (req: object, res: object) => boolean;
  maxRequestBytes: number;
  keepAliveMs: number;
  requestTimeoutMs: number;
  // The connection and the bytes not yet answered, for Node's server.
  handOff: (socket: net.Socket, unread: Buffer) => void;
  // Called with +1 when a call starts and -1 when it is answered (draining).
  inFlight: (socket: net.Socket, delta: number) => void;
  draining: () => boolean;
}

// Date header, as Node writes it, made at most once a second.
let dateSecond = 0;
let dateText = "";
function date(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

// The request as the fast path reads it (src/unary.ts Request).
class LeanRequest {
  readonly method = "POST";
  private onData?: (chunk: Buffer) => void;
  private onEnd?: () => void;
  constructor(
    readonly url: string,
    readonly headers: Record<string, string>,
    readonly lean: LeanConnection,
  ) {}
  on(event: string, listener: (chunk: Buffer) => void): this {
    if (event === "data") this.onData = listener;
    else if (event === "end") this.onEnd = listener as () => void;
    return this;
  }
  pause(): void {}
  deliver(body: Buffer): void {
    if (body.length > 0) this.onData?.(body);
    this.onEnd?.();
  }
}

// The answer, written in one piece by end().
class LeanResponse {
  writableEnded = false;
  headersSent = false;
  private status = 200;
  private headers: Record<string, string> = {};
  onClose?: () => void;
  constructor(private readonly lean: LeanConnection) {}
  on(event: string, listener: () => void): this {
    if (event === "close") this.onClose = listener;
    return this;
  }
  writeHead(status: number, headers: Record<string, string>): this {
    this.status = status;
    this.headers = headers;
    return this;
  }
  end(body?: Buffer | string): void {
    if (this.writableEnded) return;
    this.writableEnded = this.headersSent = true;
    this.lean.answer(this.status, this.headers, typeof body === "string" ? Buffer.from(body) : (body ?? Buffer.alloc(0)));
  }
}

class LeanConnection {
  private buf: Buffer | undefined;
  // Bytes come in since `buf` was last joined (once per request: a large body
  // arriving in many segments is copied once, not once per segment), and the
  // size the request being read will have once complete.
  private more: Buffer[] = [];
  private moreBytes = 0;
  private need = 0;
  // The request being served: its bytes (for a hand-over) and its answer.
  private raw: Buffer | undefined;
  private res: LeanResponse | undefined;
  private requestTimer: NodeJS.Timeout | undefined;
  private done = false;
  private readonly onData = (chunk: Buffer) => this.data(chunk);
  private readonly onClose = () => this.closed();
  private readonly onError = () => undefined; // "close" follows
  private readonly onTimeout = () => {
    if (!this.res) this.socket.destroy(); // idle; a call in flight has its own deadline
  };

  constructor(
    private readonly socket: net.Socket,
    private readonly options: LeanHttp1Options,
  ) {
    socket.on("data", this.onData);
    socket.on("close", this.onClose);
    socket.on("error", this.onError);
    socket.setTimeout(options.keepAliveMs, this.onTimeout);
  }

  private data(chunk: Buffer): void {
    this.more.push(chunk);
    this.moreBytes += chunk.length;
    if (!this.requestTimer) {
      this.requestTimer = setTimeout(() => this.timedOut(), this.options.requestTimeoutMs);
    }
    const buffered = (this.buf?.length ?? 0) + this.moreBytes;
    if (this.res) {
      if (buffered > this.options.maxRequestBytes + MAX_HEAD_BYTES) this.socket.pause();
      return;
    }
    if (buffered < this.need) return; // the rest of the body is on its way
    this.next();
  }

  private gather(): Buffer | undefined {
    if (this.more.length > 0) {
      const parts = this.buf ? [this.buf, ...this.more] : this.more;
      this.buf = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      this.more = [];
      this.moreBytes = 0;
    }
    return this.buf;
  }

  // Serves the next buffered request, or waits for the rest of it.
  private next(): void {
    if (this.done || this.res) return;
    const buf = this.gather();
    if (!buf) return;
    const end = buf.indexOf(HEAD_END);
    if (end < 0) {
      // Not the simple kind as soon as that shows: another method, a line
      // ending without CR, headers past Node's limit.
      const prefix = Math.min(5, buf.length);
      if (buf.length > MAX_HEAD_BYTES || buf.indexOf("\n\n") >= 0 || buf.toString("latin1", 0, prefix) !== "POST ".slice(0, prefix)) {
        return this.handOff();
      }
      const line = buf.indexOf(10);
      if (line >= 0 && !REQUEST_LINE.test(buf.toString("latin1", 0, line + 1))) this.handOff();
      return;
    }
    if (end > MAX_HEAD_BYTES) return this.handOff();
    const head = parseHead(buf.toString("latin1", 0, end));
    if (!head) return this.handOff();
    const length = Number(head.headers["content-length"]);
    if (length > this.options.maxRequestBytes) return this.handOff();
    const total = end + 4 + length;
    if (buf.length < total) {
      this.need = total; // the rest of the body is on its way
      return;
    }
    this.need = 0;
    this.raw = buf.subarray(0, total);
    this.buf = buf.length > total ? buf.subarray(total) : undefined;
    clearTimeout(this.requestTimer);
    this.requestTimer = this.buf ? setTimeout(() => this.timedOut(), this.options.requestTimeoutMs) : undefined;
    const req = new LeanRequest(head.url, head.headers, this);
    const res = (this.res = new LeanResponse(this));
    this.options.inFlight(this.socket, 1);
    if (!this.options.serve(req, res)) return this.replay();
    req.deliver(this.raw.subarray(end + 4));
  }

  // The fast path's answer: status line, headers and body in one write.
  answer(status: number, headers: Record<string, string>, body: Buffer): void {
    if (this.done) return;
    let head = `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? "unknown"}\r\n`;
    for (const name in headers) {
      const value = headers[name];
      if (INVALID_VALUE.test(value)) return void this.socket.destroy();
      head += `${name}: ${value}\r\n`;
    }
    if (!("content-length" in headers)) head += `content-length: ${body.length}\r\n`;
    head += `Date: ${date()}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(this.options.keepAliveMs / 1000)}\r\n\r\n`;
    const size = Buffer.byteLength(head, "latin1");
    const out = Buffer.allocUnsafe(size + body.length);
    out.write(head, 0, "latin1");
    body.copy(out, size);
    this.socket.write(out);
    this.res = undefined;
    this.raw = undefined;
    this.options.inFlight(this.socket, -1);
    if (this.options.draining()) {
      this.done = true;
      this.socket.end();
      return;
    }
    this.socket.resume();
    if (!this.requestTimer && (this.buf || this.more.length > 0)) {
      this.requestTimer = setTimeout(() => this.timedOut(), this.options.requestTimeoutMs);
    }
    this.next();
  }

  // The fast path gave the request back after reading it: Node's server reads
  // it again, from its first byte.
  replay(): void {
    this.res = undefined;
    this.options.inFlight(this.socket, -1);
    const rest = this.gather();
    const unread = rest ? Buffer.concat([this.raw!, rest]) : this.raw!;
    this.buf = unread;
    this.raw = undefined;
    this.handOff();
  }

  private handOff(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.requestTimer);
    const socket = this.socket;
    socket.off("data", this.onData);
    socket.off("close", this.onClose);
    socket.off("error", this.onError);
    socket.setTimeout(0);
    socket.off("timeout", this.onTimeout);
    socket.pause();
    const unread = this.gather() ?? Buffer.alloc(0);
    this.buf = undefined;
    this.options.handOff(socket, unread);
  }

  // A request not complete within its time: 408 as Node answers, then close.
  private timedOut(): void {
    this.requestTimer = undefined;
    if (this.done || this.res) return; // a call in flight: the next request's time starts after it
    this.done = true;
    this.socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
  }

  private closed(): void {
    this.done = true;
    clearTimeout(this.requestTimer);
    const res = this.res;
    this.res = undefined;
    if (res && !res.writableEnded) res.onClose?.(); // the call is cancelled
  }
}

// The request line and headers when they are the simple kind taken here.
function parseHead(text: string): { url: string; headers: Record<string, string> } | undefined {
  const lines = text.split("\r\n");
  const line = /^POST (\/[!-~]*) HTTP\/1\.1$/.exec(lines[0]);
  if (!line) return undefined;
  const headers: Record<string, string> = Object.create(null);
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    const colon = l.indexOf(":");
    if (colon <= 0) return undefined;
    const name = l.slice(0, colon).toLowerCase();
    if (!TOKEN.test(name) || name in headers) return undefined;
    const value = l.slice(colon + 1).replace(OWS, "");
    if (INVALID_VALUE.test(value)) return undefined;
    headers[name] = value;
  }
  const length = headers["content-length"];
  if (length === undefined || !/^\d{1,10}$/.test(length)) return undefined;
  if ("transfer-encoding" in headers || "expect" in headers || "upgrade" in headers || "origin" in headers) return undefined;
  const connection = headers.connection;
  if (connection !== undefined && connection.toLowerCase() !== "keep-alive") return undefined;
  return { url: line[1], headers };
}

// Serves `socket` (an HTTP/1.1 connection whose first bytes were read and put
// back) until a request needs Node's server.
export function serveLeanHttp1(socket: net.Socket, options: LeanHttp1Options): void {
  new LeanConnection(socket, options);
  socket.resume();
}
