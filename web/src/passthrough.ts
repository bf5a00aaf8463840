// gRPC callers (HTTP/2, application/grpc) are forwarded to stud_server as
// bytes: their frames, status and trailers are already what stud_server
// speaks, so nothing is decoded or encoded again. Connect and gRPC-Web callers
// go through connect-node (src/forward.ts), which translates.
//
// What passes: the request frames; the headers of the forwarding policy
// (isForwardedHeader: tenant keys, trace context, accept-language) plus
// grpc-timeout (else --default_timeout_ms) and the message encodings; the
// answer's headers, frames and trailers (grpc-status, grpc-message,
// grpc-status-details-bin: the details byte for byte), a trailers-only answer
// as trailers-only. The gateway ends a call itself when the deadline passes
// (DEADLINE_EXCEEDED, the upstream call cancelled), when stud_server cannot
// be reached or its stream breaks (UNAVAILABLE), and cancels the upstream
// call when the caller goes away (RST_STREAM CANCEL).
import http2 from "node:http2";
import type { DescMethod } from "@bufbuild/protobuf";
import type { Code } from "@connectrpc/connect";
import { isForwardedHeader } from "./forward.js";
import type { SessionPool } from "./upstream.js";

const { NGHTTP2_CANCEL, NGHTTP2_FLAG_END_STREAM } = http2.constants;

export interface PassthroughOptions {
  // Connections to stud_server.
  upstream: SessionPool;
  defaultTimeoutMs: number;
  // A server stream's deadline when the caller sets none.
  streamTimeoutMs: number;
  // The methods served, by path ("/stud.v1.StudService/ApplyAction").
  methods: Map<string, DescMethod>;
  // res: the caller's response the call was answered on (the access log's status).
  onCallEnd?: (method: DescMethod, protocol: string, code: Code | 0, seconds: number, res?: object) => void;
}

type Request = http2.Http2ServerRequest;
type Response = http2.Http2ServerResponse;

const PASSED_ON = new Set(["content-type", "grpc-encoding", "grpc-accept-encoding"]);
// Answer headers that belong to one hop.
const HOP = new Set(["content-length", "connection", "keep-alive", "transfer-encoding", "date"]);

// grpc-timeout ("100m", "5S", ...) in ms; undefined when absent or malformed.
function grpcTimeoutMs(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^(\d{1,8})([HMSmun])$/.exec(value);
  if (!match) return undefined;
  const perUnit: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 1e-3, n: 1e-6 };
  return Number(match[1]) * perUnit[match[2]];
}

function answerHeaders(from: http2.IncomingHttpHeaders): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(from)) {
    if (value !== undefined && !HOP.has(name) && (!name.startsWith(":") || name === ":status")) out[name] = value;
  }
  return out;
}

export function grpcPassthrough(options: PassthroughOptions): (req: Request | unknown, res: unknown) => boolean {
  return (anyReq, anyRes) => {
    const req = anyReq as Request;
    if (req.httpVersionMajor !== 2 || req.method !== "POST") return false;
    const type = req.headers["content-type"] ?? "";
    if (!type.startsWith("application/grpc") || type.startsWith("application/grpc-web")) return false;
    const method = options.methods.get(req.url.split("?", 1)[0]);
    if (!method) return false;
    const res = anyRes as Response;
    // The stream itself: its answer is sent as it comes (respond, trailers-only);
    // trailers go through the compatibility response, which sends them.
    const down = res.stream;
    const started = process.hrtime.bigint();
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    let up: http2.ClientHttp2Stream | undefined;
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.onCallEnd?.(method, "grpc", code as Code | 0, Number(process.hrtime.bigint() - started) / 1e9, res);
    };
    // Ends the call with a status of the gateway's own (trailers-only, or as
    // trailers after the answer's headers).
    const fail = (code: number, message: string) => {
      if (finished) return;
      finish(code);
      if (up) {
        up.unpipe(down);
        if (!up.closed) up.close(NGHTTP2_CANCEL);
      }
      if (down.closed || down.destroyed) return;
      const status = { "grpc-status": String(code), "grpc-message": encodeURIComponent(message) };
      if (!down.headersSent) {
        down.respond({ ":status": 200, "content-type": "application/grpc", ...status }, { endStream: true });
      } else if (!down.writableEnded) {
        res.addTrailers(status);
        down.end();
      }
    };

    const streaming = options.methods.get(req.url ?? "")?.methodKind === "server_streaming";
    const timeoutMs =
      grpcTimeoutMs(req.headers["grpc-timeout"] as string | undefined) ??
      (streaming ? options.streamTimeoutMs : options.defaultTimeoutMs);
    const headers: http2.OutgoingHttpHeaders = {
      ":method": "POST",
      ":path": req.url,
      te: "trailers",
      "grpc-timeout": `${Math.max(1, Math.ceil(timeoutMs))}m`,
    };
    for (const [name, value] of Object.entries(req.headers)) {
      if (PASSED_ON.has(name) || isForwardedHeader(name)) headers[name] = value;
    }
    timer = setTimeout(() => fail(4, "deadline exceeded at the gateway"), timeoutMs);
    // The caller gone before the answer ended: cancel the upstream call.
    down.on("close", () => {
      if (!finished) {
        finish(1);
        if (up && !up.closed) up.close(NGHTTP2_CANCEL);
      }
    });
    // A session with room (src/pool.ts); the request body waits in req meanwhile.
    options.upstream.request(headers, streaming).then(
      (upstream) => {
        if (finished) {
          upstream.close(NGHTTP2_CANCEL);
          return;
        }
        up = upstream;
        upstream.on("error", () => fail(14, "stud_server unreachable or its stream broke"));
        upstream.on("close", () => fail(14, `stud_server ended the call without a status (HTTP/2 code ${upstream.rstCode})`));
        upstream.on("response", (answer, flags) => {
          if (finished) return;
          if ((flags ?? 0) & NGHTTP2_FLAG_END_STREAM) {
            // Trailers-only: the status is in these headers.
            finish(Number(answer["grpc-status"] ?? 2));
            if (!down.closed) down.respond(answerHeaders(answer), { endStream: true });
            return;
          }
          down.respond(answerHeaders(answer), { waitForTrailers: true });
          upstream.pipe(down, { end: false });
        });
        upstream.on("trailers", (trailers) => {
          const out = answerHeaders(trailers);
          delete out[":status"];
          res.addTrailers(out);
          finish(Number(trailers["grpc-status"] ?? 2));
        });
        upstream.on("end", () => {
          if (finished && !down.writableEnded) down.end();
        });
        req.pipe(upstream);
      },
      (error: { code?: number; rawMessage?: string }) =>
        fail(error.code === 8 ? 8 : 14, error.rawMessage ?? "stud_server unreachable"),
    );
    return true;
  };
}
