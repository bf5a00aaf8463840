// The gateway's logs: one JSON object per line on stderr, as stud_server writes
// its own (service/observability/logging.h): "ts" (UTC, ms), "level", "event",
// then fields. The start-up line "stud_web listening on ..." stays plain text
// on stdout: it is the handshake scripts and tests wait for.
//
// The access log (--access_log): one "access" line per HTTP request once its
// answer is sent or the connection drops: method, path, HTTP version, status,
// duration_ms, bytes (the answer's bytes: body and, over HTTP/1.1, headers) and
// request_bytes when the caller declared them, and for an RPC its gRPC status
// beside the HTTP one (grpc_status, the number, and grpc_code, its name: the
// answer's grpc-status, or the Connect error's code; a Connect error is an HTTP
// 4xx/5xx, a gRPC one an HTTP 200). Never a header, a query string or a body:
// those carry API keys, seat tickets and tokens.
import { AsyncLocalStorage } from "node:async_hooks";
import type http from "node:http";
import type http2 from "node:http2";
import { codeName } from "./metrics.js";

// The gRPC status each answered RPC ended with, by its response object.
const grpcStatus = new WeakMap<object, number>();
// The response of the request being handled, for handlers that do not see it
// (connect-node's: src/forward.ts), set only with the access log on. Read
// only right after an await in the handler, where it is the request's own.
const currentResponse = new AsyncLocalStorage<object>();

// Records the gRPC status of the call answered on `res` (or on the response
// of the request being handled when `res` is not known).
export function noteGrpcStatus(code: number, res?: object): void {
  const target = res ?? currentResponse.getStore();
  if (target) grpcStatus.set(target, code);
}

export type Level = "debug" | "info" | "warn" | "error";
type Fields = Record<string, string | number | boolean | undefined>;

export function logLine(level: Level, event: string, fields: Fields = {}): void {
  const line: Record<string, unknown> = { ts: new Date().toISOString(), level, event };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) line[key] = value;
  process.stderr.write(JSON.stringify(line) + "\n");
}

type Request = http.IncomingMessage | http2.Http2ServerRequest;
type Response = http.ServerResponse | http2.Http2ServerResponse;

// Wraps a request handler so that every request writes one access line.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withAccessLog<H extends (req: any, res: any) => void>(handler: H): H {
  return ((req: Request, res: Response) => {
    const start = process.hrtime.bigint();
    let bytes = 0;
    let counted: () => number;
    if ("stream" in res && res.stream) {
      // HTTP/2: what the stream writes (passed-through gRPC writes the stream
      // itself, not the compatibility response).
      const stream = res.stream as http2.ServerHttp2Stream;
      const write = stream.write;
      stream.write = function (this: http2.ServerHttp2Stream, chunk: unknown, ...rest: unknown[]) {
        if (typeof chunk === "string" || chunk instanceof Uint8Array) bytes += Buffer.byteLength(chunk);
        return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
      } as typeof stream.write;
      const end = stream.end;
      stream.end = function (this: http2.ServerHttp2Stream, chunk?: unknown, ...rest: unknown[]) {
        if (typeof chunk === "string" || chunk instanceof Uint8Array) bytes += Buffer.byteLength(chunk);
        return (end as (...a: unknown[]) => http2.ServerHttp2Stream).call(this, chunk, ...rest);
      } as typeof stream.end;
      counted = () => bytes;
    } else {
      // HTTP/1.1: one request at a time per connection, so the socket's count
      // over the request's life is its answer.
      const socket = req.socket;
      const before = socket.bytesWritten;
      counted = () => socket.bytesWritten - before;
    }
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const declared = Number(req.headers["content-length"]);
      logLine("info", "access", {
        method: req.method,
        path: (req.url ?? "/").split("?")[0],
        http: req.httpVersion,
        status: res.statusCode,
        duration_ms: Number(process.hrtime.bigint() - start) / 1e6,
        bytes: counted(),
        request_bytes: Number.isFinite(declared) ? declared : undefined,
        completed: res.writableFinished,
        grpc_status: grpcStatus.get(res),
        grpc_code: grpcStatus.has(res) ? codeName(grpcStatus.get(res)!) : undefined,
      });
    };
    res.once("finish", done);
    res.once("close", done);
    currentResponse.run(res, () => handler(req, res));
  }) as H;
}
