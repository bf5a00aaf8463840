// The gateway's gRPC client for stud_server, on Node's http2 module directly:
// calls that send one request message and yield the answer's messages as they
// arrive, on the connections of src/pool.ts (grown with open streams).
// connect-node's own client did the same at 500-700 us of CPU per call where
// this takes about 190 us (same machine, same ApplyAction, 8 in flight).
//
// Errors are ConnectErrors as connect-node's client makes them: the status,
// message and google.rpc details of grpc-status / grpc-message /
// grpc-status-details-bin (findTrailerError), UNAVAILABLE when stud_server
// cannot be reached or the connection breaks, DEADLINE_EXCEEDED at the
// deadline and CANCELED when the caller's signal aborts (both also cancel the
// upstream call: RST_STREAM CANCEL).
import http2 from "node:http2";
import { fromBinary, toBinary, type DescMethod, type DescMethodServerStreaming, type DescMethodUnary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import type { SessionPool } from "./pool.js";

const { NGHTTP2_CANCEL } = http2.constants;

export { SessionPool } from "./pool.js";

export interface UpstreamCall {
  signal: AbortSignal;
  timeoutMs: number;
  // Request metadata to pass on.
  headers: Headers;
  // Filled with the answer's headers and trailers as they arrive.
  header: Headers;
  trailer: Headers;
}

function toHeaders(from: http2.IncomingHttpHeaders, to: Headers): void {
  for (const [name, value] of Object.entries(from)) {
    if (name.startsWith(":") || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) to.append(name, v);
  }
}

// One call: the request message out, the answer's messages in as they arrive.
export async function* callUpstream(
  pool: SessionPool,
  method: DescMethodUnary | DescMethodServerStreaming,
  input: unknown,
  call: UpstreamCall,
): AsyncGenerator<unknown> {
  const body = toBinary(method.input, input as never);
  const frame = Buffer.alloc(5 + body.length);
  frame.writeUInt32BE(body.length, 1);
  frame.set(body, 5);
  const headers: http2.OutgoingHttpHeaders = {
    ":method": "POST",
    ":path": `/${method.parent.typeName}/${method.name}`,
    "content-type": "application/grpc",
    te: "trailers",
    "grpc-timeout": `${Math.max(1, Math.ceil(call.timeoutMs))}m`,
  };
  call.headers.forEach((value, name) => (headers[name] = value));

  const queue: unknown[] = [];
  let failure: ConnectError | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const end = (error?: ConnectError) => {
    if (ended) return;
    ended = true;
    failure = error;
    notify();
  };

  let stream: http2.ClientHttp2Stream | undefined;
  let stopWaiting: ((error: ConnectError) => void) | undefined;
  const cancel = (error: ConnectError) => {
    end(error);
    stopWaiting?.(error);
    if (stream && !stream.closed) stream.close(NGHTTP2_CANCEL);
  };
  const timer = setTimeout(() => cancel(new ConnectError("the deadline passed", Code.DeadlineExceeded)), call.timeoutMs);
  // The signal says why: the caller's deadline (connect-node aborts with
  // DEADLINE_EXCEEDED) or the caller gone.
  const onAbort = () =>
    cancel(call.signal.reason instanceof ConnectError ? call.signal.reason : new ConnectError("the caller went away", Code.Canceled));
  if (call.signal.aborted) onAbort();
  call.signal.addEventListener("abort", onAbort);
  if (ended) {
    clearTimeout(timer);
    call.signal.removeEventListener("abort", onAbort);
    throw failure;
  }
  // The deadline and the caller's signal also bound the wait for a connection.
  const opening = pool.request(headers, method.methodKind === "server_streaming");
  try {
    stream = await Promise.race([opening, new Promise<never>((_, reject) => (stopWaiting = reject))]);
  } catch (error) {
    opening.then((late) => late.close(NGHTTP2_CANCEL), () => undefined);
    clearTimeout(timer);
    call.signal.removeEventListener("abort", onAbort);
    throw error;
  } finally {
    stopWaiting = undefined;
  }
  if (ended) {
    clearTimeout(timer);
    call.signal.removeEventListener("abort", onAbort);
    stream.close(NGHTTP2_CANCEL);
    throw failure;
  }
  const opened = stream;

  let pending = Buffer.alloc(0);
  let status: http2.IncomingHttpHeaders | undefined;
  opened.on("response", (answer) => {
    toHeaders(answer, call.header);
    if (answer["grpc-status"] !== undefined) status = answer; // trailers-only
  });
  opened.on("data", (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (pending.length < 5 + length) break;
      if (pending[0] & 1) return cancel(new ConnectError("stud_server sent a compressed message unasked", Code.Internal));
      try {
        queue.push(fromBinary(method.output, pending.subarray(5, 5 + length)));
      } catch (error) {
        return cancel(new ConnectError(`stud_server's answer does not decode: ${String(error)}`, Code.Internal));
      }
      pending = pending.subarray(5 + length);
    }
    if (queue.length > 16) opened.pause();
    notify();
  });
  opened.on("trailers", (trailers) => {
    status = trailers;
    toHeaders(trailers, call.trailer);
  });
  // The error's code only: Node's messages name addresses ("connect
  // ECONNREFUSED 10.1.2.3:50051"), which callers must not learn.
  opened.on("error", (error: NodeJS.ErrnoException) =>
    end(new ConnectError(`stud_server unreachable or the call broke (${error.code ?? "error"})`, Code.Unavailable)),
  );
  opened.on("close", () => {
    if (!status) return end(new ConnectError(`stud_server ended the call without a status (HTTP/2 code ${opened.rstCode})`, Code.Unavailable));
    const statusHeaders = new Headers();
    toHeaders(status, statusHeaders);
    end(findTrailerError(statusHeaders));
  });
  opened.end(frame);

  try {
    for (;;) {
      if (queue.length > 0) {
        yield queue.shift();
        if (queue.length <= 4 && opened.isPaused()) opened.resume();
        continue;
      }
      if (ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    // A failure ends the call even when messages came first (a stream's error).
    if (failure) throw failure;
  } finally {
    clearTimeout(timer);
    call.signal.removeEventListener("abort", onAbort);
    if (!opened.closed) opened.close(NGHTTP2_CANCEL);
  }
}

// A unary call: exactly one message on success.
export async function unaryUpstream(pool: SessionPool, method: DescMethod & DescMethodUnary, input: unknown, call: UpstreamCall): Promise<unknown> {
  let message: unknown;
  let count = 0;
  for await (const m of callUpstream(pool, method, input, call)) {
    message = m;
    count++;
  }
  if (count !== 1) throw new ConnectError(`stud_server answered ${count} messages to a unary call`, Code.Unimplemented);
  return message;
}
