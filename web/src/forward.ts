// Forwards every stud.v1.StudService RPC received by the gateway (Connect JSON
// or binary, gRPC-Web or gRPC) to stud_server over gRPC, unchanged: the same
// request message, the caller's deadline, the metadata the service reads
// (tenant keys, traceparent), and on failure the upstream status code, message
// and google.rpc details byte for byte (ErrorInfo with the rule ID,
// LocalizedMessage). The gateway keeps no state of its own.
import { fromBinary, toJson, type DescMessage, type DescMethod, type DescMethodUnary } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type HandlerContext,
  type Transport,
} from "@connectrpc/connect";
import { StudService } from "../gen/stud/v1/stud_pb.js";
import { ErrorInfoSchema, LocalizedMessageSchema } from "../gen/google/rpc/error_details_pb.js";

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

export interface ForwardHooks {
  // Called once per call with the method, the protocol the caller used and the
  // final gRPC status code (0 for OK), after the answer is known.
  onCallEnd?: (method: DescMethod, protocol: string, code: Code | 0, seconds: number) => void;
}

export interface ForwardOptions {
  upstream: Transport;
  // Deadline given to stud_server when the caller sets none, in ms.
  defaultTimeoutMs: number;
  hooks?: ForwardHooks;
}

type UnaryHandler = (request: unknown, ctx: HandlerContext) => Promise<unknown>;

// One handler per StudService method, each a plain unary forward.
export function studServiceForwarder(options: ForwardOptions): Record<string, UnaryHandler> {
  const impl: Record<string, UnaryHandler> = {};
  for (const method of StudService.methods) {
    if (method.methodKind !== "unary") {
      throw new Error(`gateway: ${method.name} is not unary; forwarding it needs a streaming handler`);
    }
    const unary = method as DescMethodUnary;
    impl[method.localName] = async (request, ctx) => {
      const started = process.hrtime.bigint();
      let code: Code | 0 = 0;
      try {
        const response = await options.upstream.unary(
          unary,
          ctx.signal,
          ctx.timeoutMs() ?? options.defaultTimeoutMs,
          forwardedHeaders(ctx.requestHeader),
          request as never,
        );
        return response.message;
      } catch (error) {
        const relayed = passThroughError(error);
        code = relayed.code;
        throw relayed;
      } finally {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        options.hooks?.onCallEnd?.(method, ctx.protocolName, code, seconds);
      }
    };
  }
  return impl;
}
