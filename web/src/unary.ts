// The unary fast path: Connect (JSON or binary) and gRPC-Web (binary) unary
// calls over HTTP/1.1 or HTTP/2, served on Node's request and response objects
// directly instead of through connect-node's handler (src/adapter.ts), which
// took most of the ~700 us of CPU per call: its universal request and
// response, async iterables, handler context and abort signal per call.
//
// What each protocol costs here:
// * Connect binary: the request body gets the 5-byte gRPC frame header in
//   front; the answer's message leaves without it. Nothing is decoded.
// * gRPC-Web binary: the request frames go upstream as they came; the answer's
//   frames come back as they came, then one trailer frame with the upstream's
//   status (grpc-status, grpc-message, grpc-status-details-bin byte for byte).
// * Connect JSON: parsed once (JSON.parse, the strict enum check of
//   src/strict-json.ts, then straight to binary along the generated
//   descriptors, src/transcode.ts), and the answer converted once (binary
//   straight to a JSON value, JSON.stringify).
//
// Everything it does not take is left to connect-node through `fallback`, with
// the body already read when it was: a request that is not POST or carries a
// query (Connect GET), a compressed request, a malformed timeout, server
// streams (WatchHand), gRPC-Web JSON, and a JSON body that JSON.parse or
// fromJson refuses (connect-es then words the error exactly as before). An
// answer is compressed as connect-node would (Connect: gzip or br when the
// caller accepts it and the body is 1 KiB or more).
//
// Errors: the upstream's code, message and google.rpc details byte for byte
// (Connect JSON error body with the readable `debug` copies, src/forward.ts
// passThroughError); DEADLINE_EXCEEDED at the caller's deadline (else
// --default_timeout_ms), the upstream call cancelled; UNAVAILABLE when
// stud_server cannot be reached; a caller gone cancels the upstream call.
import http2 from "node:http2";
import zlib from "node:zlib";
import { fromBinary, toJson, type DescMethod, type DescMessage } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { codeToHttpStatus, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { passThroughError } from "./forward.js";
import type { SessionPool } from "./pool.js";
import type { NodeHandlerFn } from "./listener.js";
import { unknownEnumValue } from "./strict-json.js";
import { binaryToJson, binaryToJsonBytes, jsonToBinary } from "./transcode.js";
import {
  COMPRESS_MIN_BYTES,
  FORWARDED,
  Kind,
  answerEncoding,
  grpcTimeoutMs,
  isMetadata,
  kindOf,
  one,
  type Request,
  type Response,
} from "./unary-wire.js";

const { NGHTTP2_CANCEL, NGHTTP2_FLAG_END_STREAM } = http2.constants;

type NodeRequest = Parameters<NodeHandlerFn>[0];
type NodeResponse = Parameters<NodeHandlerFn>[1];

export interface UnaryFastPathOptions {
  upstream: SessionPool;
  defaultTimeoutMs: number;
  // The unary methods served, each at /<service>/<method>.
  methods: DescMethod[];
  // Request bodies larger than this are refused (RESOURCE_EXHAUSTED).
  maxRequestBytes: number;
  // res: the caller's response the call was answered on (the access log's status).
  onCallEnd?: (method: DescMethod, protocol: string, code: Code | 0, seconds: number, res?: object) => void;
  // connect-node's handler; `body` when the fast path has read it already.
  fallback: (req: NodeRequest, res: NodeResponse, body?: Buffer) => void;
}

interface Route {
  method: DescMethod;
  input: DescMessage;
  output: DescMessage;
  path: string;
}

export function unaryFastPath(options: UnaryFastPathOptions): (req: NodeRequest, res: NodeResponse) => boolean {
  const routes = new Map<string, Route>();
  for (const method of options.methods) {
    if (method.methodKind !== "unary") continue;
    const path = `/${method.parent.typeName}/${method.name}`;
    routes.set(path, { method, input: method.input, output: method.output, path });
  }

  return (nodeReq, nodeRes) => {
    const req = nodeReq as unknown as Request;
    const res = nodeRes as unknown as Response;
    if (req.method !== "POST") return false;
    const route = routes.get(req.url ?? "");
    if (!route) return false;
    const headers = req.headers;
    const kind = kindOf(one(headers["content-type"])?.toLowerCase());
    if (kind === undefined) return false;
    let timeoutMs: number | null;
    if (kind === Kind.GrpcWebProto) {
      const encoding = one(headers["grpc-encoding"]);
      if (encoding !== undefined && encoding !== "identity") return false;
      const timeout = one(headers["grpc-timeout"]);
      timeoutMs = timeout === undefined ? options.defaultTimeoutMs : grpcTimeoutMs(timeout);
    } else {
      const encoding = one(headers["content-encoding"]);
      if (encoding !== undefined && encoding !== "identity") return false;
      const timeout = one(headers["connect-timeout-ms"]);
      timeoutMs = timeout === undefined ? options.defaultTimeoutMs : /^\d{1,10}$/.test(timeout) ? Number(timeout) : null;
    }
    if (timeoutMs === null) return false;
    new UnaryCall(options, route, kind, nodeReq, nodeRes, timeoutMs).start();
    return true;
  };
}

// One call, from the caller's body to its answer.
class UnaryCall {
  private readonly started = process.hrtime.bigint();
  private chunks: Buffer[] = [];
  private size = 0;
  private finished = false;
  private timer: NodeJS.Timeout | undefined;
  private up: http2.ClientHttp2Stream | undefined;
  private status: http2.IncomingHttpHeaders | undefined;
  private answer: http2.IncomingHttpHeaders | undefined;
  private data: Buffer[] = [];

  constructor(
    private readonly options: UnaryFastPathOptions,
    private readonly route: Route,
    private readonly kind: Kind,
    private readonly nodeReq: NodeRequest,
    private readonly nodeRes: NodeResponse,
    private readonly timeoutMs: number,
  ) {
    this.req = nodeReq as unknown as Request;
    this.res = nodeRes as unknown as Response;
  }
  private readonly req: Request;
  private readonly res: Response;

  start(): void {
    const { req, res } = this;
    req.on("data", (chunk: Buffer) => {
      if (this.finished) return;
      this.size += chunk.length;
      if (this.size > this.options.maxRequestBytes) {
        req.pause();
        this.fail(Code.ResourceExhausted, `request larger than ${this.options.maxRequestBytes} bytes`);
        return;
      }
      this.chunks.push(chunk);
    });
    req.on("end", () => {
      if (!this.finished) this.send();
    });
    req.on("error", () => undefined); // the caller went away: "close" below
    res.on("close", () => {
      if (this.finished) return;
      // The caller gone before its answer: cancel the upstream call.
      this.end(Code.Canceled);
      if (this.up && !this.up.closed) this.up.close(NGHTTP2_CANCEL);
    });
    this.timer = setTimeout(() => this.fail(Code.DeadlineExceeded, "the deadline passed"), this.timeoutMs);
  }

  // The request read: its gRPC frame, then the upstream call.
  private send(): void {
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = [];
    let frame: Buffer;
    if (this.kind === Kind.GrpcWebProto) {
      frame = body;
    } else {
      let message: Uint8Array = body;
      if (this.kind === Kind.ConnectJson) {
        let json: unknown;
        try {
          json = JSON.parse(body.toString("utf8"));
        } catch {
          return this.handOver(body); // connect-es says what is wrong with it
        }
        const problem = unknownEnumValue(this.route.input, json);
        if (problem) return this.fail(Code.InvalidArgument, problem);
        try {
          message = jsonToBinary(this.route.input, json);
        } catch {
          return this.handOver(body); // an unknown key, a wrong type...: connect-es decides and names it
        }
      }
      frame = Buffer.allocUnsafe(5 + message.length);
      frame[0] = 0;
      frame.writeUInt32BE(message.length, 1);
      frame.set(message, 5);
    }
    const headers: http2.OutgoingHttpHeaders = {
      ":method": "POST",
      ":path": this.route.path,
      "content-type": "application/grpc",
      te: "trailers",
      "grpc-timeout": `${Math.max(1, Math.ceil(this.timeoutMs))}m`,
    };
    const incoming = this.req.headers;
    for (const name in incoming) {
      if (FORWARDED.has(name) || name.startsWith("x-stud-")) headers[name] = incoming[name];
    }
    const pool = this.options.upstream;
    let stream: http2.ClientHttp2Stream | undefined;
    try {
      stream = pool.tryUnary(headers);
    } catch (error) {
      return this.failWith(ConnectError.from(error, Code.Unavailable));
    }
    if (stream) return this.attach(stream, frame);
    pool.request(headers, false).then(
      (late) => {
        if (this.finished) late.close(NGHTTP2_CANCEL);
        else this.attach(late, frame);
      },
      (error) => this.failWith(ConnectError.from(error, Code.Unavailable)),
    );
  }

  private handOver(body: Buffer): void {
    this.finished = true;
    clearTimeout(this.timer);
    // A request read without Node's server (src/http1-lean.ts) goes to it whole.
    const lean = (this.req as { lean?: { replay(): void } }).lean;
    if (lean) return lean.replay();
    this.options.fallback(this.nodeReq, this.nodeRes, body);
  }

  private attach(up: http2.ClientHttp2Stream, frame: Buffer): void {
    this.up = up;
    up.on("response", (answer, flags) => {
      this.answer = answer;
      if ((flags ?? 0) & NGHTTP2_FLAG_END_STREAM) this.status = answer; // trailers-only
    });
    up.on("data", (chunk: Buffer) => this.data.push(chunk));
    up.on("trailers", (trailers) => (this.status = trailers));
    up.on("error", () => this.fail(Code.Unavailable, "stud_server unreachable or the call broke"));
    up.on("close", () => this.answered());
    up.end(frame);
  }

  // The upstream stream closed: answer the caller.
  private answered(): void {
    if (this.finished) return;
    const status = this.status;
    if (!status) {
      return this.fail(Code.Unavailable, `stud_server ended the call without a status (HTTP/2 code ${this.up?.rstCode})`);
    }
    const code = Number(status["grpc-status"] ?? Code.Unknown);
    if (this.kind === Kind.GrpcWebProto) return this.grpcWebAnswer(status, code);
    if (code !== 0) {
      const headers = new Headers();
      for (const name in status) {
        const value = status[name];
        if (name.charCodeAt(0) !== 58 && typeof value === "string") headers.set(name, value);
      }
      return this.failWith(findTrailerError(headers) ?? new ConnectError("stud_server failed without a code", Code.Unknown));
    }
    const data = this.data.length === 1 ? this.data[0] : Buffer.concat(this.data);
    const length = data.length >= 5 ? data.readUInt32BE(1) : -1;
    if (length < 0 || data.length !== 5 + length) {
      const count = data.length === 0 ? 0 : "more than one";
      return this.fail(Code.Unimplemented, `stud_server answered ${count} messages to a unary call`);
    }
    if (data[0] & 1) return this.fail(Code.Internal, "stud_server sent a compressed message unasked");
    const payload = data.subarray(5);
    let body: Buffer;
    if (this.kind === Kind.ConnectJson) {
      try {
        body = this.answerJson(payload);
      } catch (error) {
        return this.fail(Code.Internal, `stud_server's answer does not decode: ${String(error)}`);
      }
    } else {
      body = payload;
    }
    const headers: Record<string, string> = {
      "content-type": this.kind === Kind.ConnectJson ? "application/json" : "application/proto",
    };
    this.copyMetadata(this.answer, headers, "");
    if (status !== this.answer) this.copyMetadata(status, headers, "trailer-");
    this.end(0);
    const encoding = body.length >= COMPRESS_MIN_BYTES ? answerEncoding(one(this.req.headers["accept-encoding"])) : undefined;
    if (!encoding) return this.write(200, headers, body);
    const compress = encoding === "gzip" ? zlib.gzip : zlib.brotliCompress;
    compress(body, (error, compressed) => {
      if (error) return this.write(200, headers, body);
      headers["content-encoding"] = encoding;
      this.write(200, headers, compressed);
    });
  }

  // The answer as JSON text: written straight from the wire (src/json-answer.ts),
  // else through the JSON value (src/transcode-read.ts), else (a form that
  // leaves to it) through protobuf-es, which also says why a message does not decode.
  private answerJson(payload: Uint8Array): Buffer {
    const output = this.route.output;
    try {
      return binaryToJsonBytes(output, payload);
    } catch {
      let value: unknown;
      try {
        value = binaryToJson(output, payload);
      } catch {
        value = toJson(output, fromBinary(output, payload));
      }
      return Buffer.from(JSON.stringify(value));
    }
  }

  // gRPC-Web: the answer's frames as they came, then its status as a trailer frame.
  private grpcWebAnswer(status: http2.IncomingHttpHeaders, code: number): void {
    const headers: Record<string, string> = { "content-type": "application/grpc-web+proto" };
    let trailer = "";
    if (status === this.answer) {
      // Trailers-only: no message, every header but the hop's is status or metadata.
      for (const name in status) {
        const value = status[name];
        if (typeof value !== "string") continue;
        if (name.startsWith("grpc-") && name !== "grpc-encoding" && name !== "grpc-accept-encoding") trailer += `${name}: ${value}\r\n`;
        else if (isMetadata(name)) trailer += `${name}: ${value}\r\n`;
      }
    } else {
      this.copyMetadata(this.answer, headers, "");
      for (const name in status) {
        const value = status[name];
        if (typeof value === "string" && name.charCodeAt(0) !== 58) trailer += `${name}: ${value}\r\n`;
      }
    }
    const trailerBytes = Buffer.byteLength(trailer);
    const data = code === 0 ? this.data : [];
    let size = 5 + trailerBytes;
    for (const chunk of data) size += chunk.length;
    const body = Buffer.allocUnsafe(size);
    let at = 0;
    for (const chunk of data) at += chunk.copy(body, at);
    body[at] = 0x80;
    body.writeUInt32BE(trailerBytes, at + 1);
    body.write(trailer, at + 5, "latin1");
    this.end(code);
    this.write(200, headers, body);
  }

  private copyMetadata(from: http2.IncomingHttpHeaders | undefined, to: Record<string, string>, prefix: string): void {
    if (!from) return;
    for (const name in from) {
      const value = from[name];
      if (value !== undefined && isMetadata(name)) to[prefix + name] = Array.isArray(value) ? value.join(", ") : String(value);
    }
  }

  private fail(code: Code, message: string): void {
    this.failWith(new ConnectError(message, code));
  }

  // Ends the call with an error of the gateway's or the upstream's.
  private failWith(error: ConnectError): void {
    if (this.finished) return;
    const up = this.up;
    if (up && !up.closed) up.close(NGHTTP2_CANCEL);
    if (this.kind === Kind.GrpcWebProto) {
      const trailer =
        `grpc-status: ${error.code}\r\n` +
        `grpc-message: ${encodeURIComponent(error.rawMessage)}\r\n`;
      const body = Buffer.allocUnsafe(5 + Buffer.byteLength(trailer));
      body[0] = 0x80;
      body.writeUInt32BE(body.length - 5, 1);
      body.write(trailer, 5, "latin1");
      this.end(error.code);
      return this.write(200, { "content-type": "application/grpc-web+proto" }, body);
    }
    const relayed = passThroughError(error);
    this.end(relayed.code);
    this.write(codeToHttpStatus(relayed.code), { "content-type": "application/json" }, Buffer.from(errorToJsonBytes(relayed, {})));
  }

  private end(code: Code | 0): void {
    this.finished = true;
    clearTimeout(this.timer);
    const seconds = Number(process.hrtime.bigint() - this.started) / 1e9;
    this.options.onCallEnd?.(this.route.method, this.kind === Kind.GrpcWebProto ? "grpc-web" : "connect", code, seconds, this.res);
  }

  private write(status: number, headers: Record<string, string>, body: Buffer): void {
    const res = this.res;
    if (res.writableEnded || res.headersSent) return;
    headers["content-length"] = String(body.length);
    res.writeHead(status, headers);
    res.end(body);
  }
}
