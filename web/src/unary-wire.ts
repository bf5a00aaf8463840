// What the unary fast path (src/unary.ts) reads off a call's headers and
// writes into its answer's: the request and response members it uses on
// Node's HTTP/1.1 and HTTP/2 servers, the protocol named by the content type,
// the caller's timeout (grpc-timeout), the headers passed on to stud_server
// and back, and the answer's compression.

// The request and response of Node's HTTP/1.1 server or its HTTP/2
// compatibility API: the members the fast path uses, which both have.
export interface Request {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end" | "error", listener: (arg?: unknown) => void): unknown;
  pause(): unknown;
}
export interface Response {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: Buffer | string): unknown;
  on(event: "close", listener: () => void): unknown;
  readonly writableEnded: boolean;
  readonly headersSent: boolean;
}

// The protocol of a call, from its content type.
export const enum Kind {
  ConnectJson,
  ConnectProto,
  GrpcWebProto,
}

// Request headers passed on to stud_server (src/forward.ts isForwardedHeader).
export const FORWARDED = new Set(["traceparent", "tracestate", "accept-language"]);
// Answer headers that are not the service's own metadata (src/forward.ts).
const HOP = new Set([
  "content-type", "content-length", "content-encoding", "accept-encoding", "te", "trailer",
  "transfer-encoding", "date", "server", "user-agent", "connection", "keep-alive",
]);
export function isMetadata(name: string): boolean {
  return !(name.charCodeAt(0) === 58 /* ":" */ || HOP.has(name) || name.startsWith("grpc-") || name.startsWith("connect-"));
}

// connect-node's threshold: smaller answers are not worth compressing.
export const COMPRESS_MIN_BYTES = 1024;

export function kindOf(type: string | undefined): Kind | undefined {
  switch (type) {
    case "application/json":
    case "application/json; charset=utf-8":
    case "application/json;charset=utf-8":
      return Kind.ConnectJson;
    case "application/proto":
      return Kind.ConnectProto;
    case "application/grpc-web":
    case "application/grpc-web+proto":
      return Kind.GrpcWebProto;
    default:
      return undefined;
  }
}

// grpc-timeout ("100m", "5S", ...) in ms; null when malformed.
const PER_UNIT: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 1e-3, n: 1e-6 };
export function grpcTimeoutMs(value: string): number | null {
  const match = /^(\d{1,8})([HMSmun])$/.exec(value);
  return match ? Number(match[1]) * PER_UNIT[match[2]] : null;
}

export function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// The chosen answer encoding among those connect-node offers (gzip, then br).
export function answerEncoding(accepted: string | undefined): "gzip" | "br" | undefined {
  if (!accepted) return undefined;
  for (const name of accepted.split(",")) {
    const n = name.trim();
    if (n === "gzip" || n === "br") return n;
  }
  return undefined;
}
