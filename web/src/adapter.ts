// The gateway's Node request handler for Connect and gRPC-Web: connect-node's
// adapter (connectNodeAdapter) with one step of its own. A unary Connect JSON
// request (POST, application/json, not compressed) is read here first and
// refused with a sentence naming the field when it holds an enum name the API
// does not have (src/strict-json.ts); otherwise its bytes go on to connect-es
// exactly as read. Other paths go to `fallback`.
import type http from "node:http";
import { Code, ConnectError, createConnectRouter, type ConnectRouter } from "@connectrpc/connect";
import {
  compressionBrotli,
  compressionGzip,
  universalRequestFromNodeRequest,
  universalResponseToNodeResponse,
} from "@connectrpc/connect-node";
import { createAsyncIterable } from "@connectrpc/connect/protocol";
import type { NodeHandlerFn } from "./listener.js";
import { unknownEnumValue } from "./strict-json.js";

type Request = Parameters<NodeHandlerFn>[0];
type Response = Parameters<NodeHandlerFn>[1];

// Larger requests are refused before parsing (RESOURCE_EXHAUSTED): a JSON
// request this size is already far past any stud.v1 message (stud_server's
// gRPC takes at most 4 MiB, and JSON is larger than the binary form), and a
// gateway that buffered whatever it was sent would be easy to exhaust.
export const MAX_JSON_BYTES = 4 << 20;

function refuse(res: Response, status: number, code: string, message: string): void {
  (res as http.ServerResponse).writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ code, message }));
}

async function readBody(req: Request): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function connectHandler(
  routes: (router: ConnectRouter) => void,
  fallback: (req: Request, res: Response) => void,
): (req: Request, res: Response, body?: Buffer) => void {
  const router = createConnectRouter({
    // Strict proto3 JSON: a misspelt field ("expectedVerison") or an enum name
    // the API does not have is INVALID_ARGUMENT naming it, not silently dropped
    // (connect-es ignores both by default).
    jsonOptions: { ignoreUnknownFields: false },
    acceptCompression: [compressionGzip, compressionBrotli],
    // Every request connect-es reads (streams, gRPC-Web JSON, compressed
    // ones, after decompression) as bounded as the unary fast path's.
    readMaxBytes: MAX_JSON_BYTES,
  });
  routes(router);
  const paths = new Map(router.handlers.map((h) => [h.requestPath, h]));

  // body: the request's bytes when read already (src/unary.ts hands over
  // requests it leaves to connect-es).
  return (req, res, preRead) => {
    const uHandler = paths.get((req.url ?? "").split("?", 1)[0]);
    if (!uHandler) return fallback(req, res);
    const serve = (body?: Buffer) => {
      const uReq = universalRequestFromNodeRequest(req as http.IncomingMessage, res as http.ServerResponse, undefined, undefined);
      uHandler(body ? { ...uReq, body: createAsyncIterable([new Uint8Array(body)]) } : uReq)
        .then((uRes) => universalResponseToNodeResponse(uRes, res as http.ServerResponse))
        .catch((reason) => {
          // As connect-node's adapter: an answer cut off by the caller is no news.
          if (ConnectError.from(reason).code !== Code.Aborted) {
            console.error(`handler for rpc ${uHandler.method.name} of ${uHandler.service.typeName} failed`, reason);
          }
        });
    };
    const type = String(req.headers["content-type"] ?? "").split(";", 1)[0].trim().toLowerCase();
    const encoding = String(req.headers["content-encoding"] ?? "identity").toLowerCase();
    if (req.method !== "POST" || type !== "application/json" || encoding !== "identity" || uHandler.method.methodKind !== "unary") {
      return serve(preRead);
    }
    const check = (body: Buffer | undefined) => {
      if (!body) return refuse(res, 429, "resource_exhausted", `request larger than ${MAX_JSON_BYTES} bytes`);
      let json: unknown;
      try {
        json = JSON.parse(body.toString("utf8"));
      } catch {
        return serve(body); // connect-es says what is wrong with it
      }
      const problem = unknownEnumValue(uHandler.method.input, json);
      if (problem) return refuse(res, 400, "invalid_argument", problem);
      serve(body);
    };
    if (preRead) return check(preRead);
    void readBody(req).then(check, () => undefined); // undefined: the caller went away while sending
  };
}
