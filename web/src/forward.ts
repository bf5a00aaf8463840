// Forwards every stud.v1.StudService RPC received by the gateway in Connect
// (JSON or binary) or gRPC-Web (gRPC callers over HTTP/2 pass through as bytes:
// src/passthrough.ts) to stud_server over gRPC, unchanged: the same
// request message, the caller's deadline, the metadata the service reads
// (tenant keys, traceparent), and on failure the upstream status code, message
// and google.rpc details byte for byte (ErrorInfo with the rule ID,
// LocalizedMessage). The gateway keeps no state of its own.
import {
  fromBinary,
  toJson,
  type DescMessage,
  type DescMethod,
  type DescMethodServerStreaming,
  type DescMethodUnary,
} from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { StudService } from "../gen/stud/v1/stud_pb.js";
import { ErrorInfoSchema, LocalizedMessageSchema } from "../gen/google/rpc/error_details_pb.js";
import { callUpstream, unaryUpstream, type SessionPool, type UpstreamCall } from "./upstream.js";

// Request headers passed on to stud_server. Everything else (content type,
// protocol and transport headers) belongs to the hop between caller and gateway.
const FORWARDED_HEADER_PREFIXES = ["x-stud-"];
const FORWARDED_HEADERS = new Set(["traceparent", "tracestate", "accept-language"]);

export function isForwardedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FORWARDED_HEADERS.has(lower) || FORWARDED_HEADER_PREFIXES.some((p) => lower.startsWith(p));
}

export function forwardedHeaders(incoming: Headers): Headers {
  const out = new Headers();
  incoming.forEach((value, name) => {
    if (isForwardedHeader(name)) out.append(name.toLowerCase(), value);
  });
  return out;
}

// The detail types stud_server attaches; each is also rendered as readable
// JSON ("debug") in Connect error bodies, while its bytes stay as received.
const KNOWN_DETAILS: DescMessage[] = [ErrorInfoSchema, LocalizedMessageSchema];

export function passThroughError(error: unknown): ConnectError {
  const upstream = ConnectError.from(error);
  const relayed = new ConnectError(upstream.rawMessage, upstream.code);
  relayed.details = upstream.details.map((detail) => {
    if ("desc" in detail) return detail;
    const desc = KNOWN_DETAILS.find((d) => d.typeName === detail.type);
    if (!desc) return detail;
    try {
      return { ...detail, debug: toJson(desc, fromBinary(desc, detail.value)) };
    } catch {
      return detail;
    }
  });
  return relayed;
}

// Response metadata stud_server sets for the caller (none today; custom keys
// only): the status, content and transport headers belong to each hop.
const HOP_HEADERS = new Set([
  "content-type", "content-length", "content-encoding", "accept-encoding", "te", "trailer",
  "transfer-encoding", "date", "server", "user-agent", "connection", "keep-alive",
]);

function copyMetadata(from: Headers, to: Headers): void {
  from.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (HOP_HEADERS.has(lower) || lower.startsWith("grpc-") || lower.startsWith("connect-") || lower.startsWith(":")) return;
    to.append(lower, value);
  });
}

export interface ForwardHooks {
  // Called once per call with the method, the protocol the caller used and the
  // final gRPC status code (0 for OK), after the answer is known (for a
  // stream: once it has ended).
  onCallEnd?: (method: DescMethod, protocol: string, code: Code | 0, seconds: number) => void;
}

export interface ForwardOptions {
  // Connections to stud_server.
  upstream: SessionPool;
  // Deadline given to stud_server when the caller sets none, in ms: a unary
  // call's, and a server stream's (WatchHand stays open for a whole hand).
  defaultTimeoutMs: number;
  streamTimeoutMs: number;
  hooks?: ForwardHooks;
}

type UnaryHandler = (request: unknown, ctx: HandlerContext) => Promise<unknown>;
type ServerStreamHandler = (request: unknown, ctx: HandlerContext) => AsyncIterable<unknown>;

// One handler per StudService method: a unary forward, or for a server stream
// (WatchHand) a forward that yields each upstream message as it arrives. The
// upstream call shares the caller's abort signal, so a caller that goes away
// cancels it (RST_STREAM CANCEL); an open stream holds only its HTTP/2
// streams and a pending promise, no thread or worker.
export function studServiceForwarder(options: ForwardOptions): Record<string, UnaryHandler | ServerStreamHandler> {
  const impl: Record<string, UnaryHandler | ServerStreamHandler> = {};
  const finish = (method: DescMethod, ctx: HandlerContext, code: Code | 0, started: bigint) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    options.hooks?.onCallEnd?.(method, ctx.protocolName, code, seconds);
  };
  const upstreamCall = (ctx: HandlerContext, defaultTimeoutMs: number): UpstreamCall => ({
    signal: ctx.signal,
    timeoutMs: ctx.timeoutMs() ?? defaultTimeoutMs,
    headers: forwardedHeaders(ctx.requestHeader),
    header: new Headers(),
    trailer: new Headers(),
  });
  for (const method of StudService.methods) {
    if (method.methodKind === "unary") {
      const unary = method as DescMethodUnary;
      impl[method.localName] = async (request, ctx) => {
        const started = process.hrtime.bigint();
        let code: Code | 0 = 0;
        try {
          const call = upstreamCall(ctx, options.defaultTimeoutMs);
          const message = await unaryUpstream(options.upstream, unary, request, call);
          copyMetadata(call.header, ctx.responseHeader);
          copyMetadata(call.trailer, ctx.responseTrailer);
          return message;
        } catch (error) {
          const relayed = passThroughError(error);
          code = relayed.code;
          throw relayed;
        } finally {
          finish(method, ctx, code, started);
        }
      };
    } else if (method.methodKind === "server_streaming") {
      const streaming = method as DescMethodServerStreaming;
      impl[method.localName] = async function* (request, ctx) {
        const started = process.hrtime.bigint();
        let code: Code | 0 = 0;
        try {
          const call = upstreamCall(ctx, options.streamTimeoutMs);
          let headersCopied = false;
          for await (const message of callUpstream(options.upstream, streaming, request, call)) {
            // The answer's headers arrive before its first message.
            if (!headersCopied) copyMetadata(call.header, ctx.responseHeader);
            headersCopied = true;
            yield message;
          }
          if (!headersCopied) copyMetadata(call.header, ctx.responseHeader);
          copyMetadata(call.trailer, ctx.responseTrailer);
        } catch (error) {
          // The handler's signal aborted (the caller gone, or its deadline
          // passed): its reason is the status, not the cancelled upstream's.
          const relayed = ctx.signal.aborted ? ConnectError.from(ctx.signal.reason ?? error, Code.Canceled) : passThroughError(error);
          code = relayed.code;
          throw relayed;
        } finally {
          finish(method, ctx, code, started);
        }
      };
    } else {
      throw new Error(`gateway: ${method.name} is ${method.methodKind}; forwarding it needs a handler of that kind`);
    }
  }
  return impl;
}
